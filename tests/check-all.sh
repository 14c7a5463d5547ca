#!/bin/bash
# What `make check-all` (and CI) runs: the suite twice, as built for
# release (build/) and under ASan+UBSan (build-san/); the hwsim VM runs each
# wpad scenario once, in the sanitizer pass (the release pass keeps the
# baselines and the scenarios headed "# smoke: yes"). Both passes always
# run, whatever the first one's outcome; then both summaries are printed
# again, and a closing line adds them up:
#   check: N passed, N failed, N skipped[, N flaky ...]
# Exit 0 only when both passes finished without a failure.
#   tests/check-all.sh [MAKE ARGS...]
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
make=${MAKE:-make}
passes=("release build" "sanitizer build-san")
declare -A rc

for p in "${passes[@]}"; do
	read -r label dir <<<"$p"
	rm -f "$top/$dir/test-logs/summary"
	echo "==== check-all: $label pass ($dir/)"
	san=0
	[ "$label" = sanitizer ] && san=1
	rc[$label]=0
	# The VM suite is the longest part: each wpad scenario runs once, in the
	# sanitizer pass; the release pass runs the baselines and a smoke set.
	WPAD_HWSIM_SPLIT=1 "$make" -C "$top" --no-print-directory check SAN=$san "$@" || rc[$label]=$?
done

total_passed=0 total_failed=0 total_skipped=0 total_flaky=0 flaky_names=""
echo
echo "================ check-all: both passes ================"
for p in "${passes[@]}"; do
	read -r label dir <<<"$p"
	summary=$top/$dir/test-logs/summary
	last=$(tail -n1 "$summary" 2>/dev/null)
	if ! [[ $last =~ ^check:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped(,\ ([0-9]+)\ flaky[^:]*:(.*))?$ ]]; then
		# The build or the runner stopped before its closing line.
		echo
		echo "==== $label pass ($dir/): did not finish (make exit ${rc[$label]}); see its output above"
		total_failed=$((total_failed + 1))
		continue
	fi
	cat "$summary"
	total_passed=$((total_passed + BASH_REMATCH[1]))
	total_failed=$((total_failed + BASH_REMATCH[2]))
	total_skipped=$((total_skipped + BASH_REMATCH[3]))
	if [ -n "${BASH_REMATCH[4]}" ]; then
		total_flaky=$((total_flaky + BASH_REMATCH[5]))
		flaky_names+="${BASH_REMATCH[6]}"
	fi
	# A summary that says 0 failed while make failed (a crash after it).
	[ "${rc[$label]}" -ne 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ] && total_failed=$((total_failed + 1))
done
echo
for p in "${passes[@]}"; do
	read -r label dir <<<"$p"
	echo "check-all: $label ($dir/): $(tail -n1 "$top/$dir/test-logs/summary" 2>/dev/null || echo "did not finish")"
done
line="check: $total_passed passed, $total_failed failed, $total_skipped skipped"
[ $total_flaky -eq 0 ] || line+=", $total_flaky flaky (passed on a retry; counted as passed):$flaky_names"
echo "$line"
[ $total_failed -eq 0 ]
