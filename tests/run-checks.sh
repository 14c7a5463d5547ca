#!/bin/bash
# Runs every test group and prints one table and one closing line.
#   tests/run-checks.sh BUILD_DIR FUZZ_BUILD_DIR
# Groups: Check unit suites; integration programs (tests/integration/*.c,
# built into BUILD_DIR) and scripts (tests/integration/*.sh); a smoke run of
# each libFuzzer target from its seed corpus. A group that cannot run is a
# failure, never a silent pass.
#
# Each row is PASS, FAIL, SKIP or FLAKY. A test script that cannot run in
# this mode or environment exits 77 (SKIP_EXIT) after printing the reason as
# its last line; it counts as skipped, never as passed. A hwsim scenario
# that passed only on its retry is FLAKY: counted as passed, and named in
# the closing line. The closing line, "check: N passed, N failed, N
# skipped[, N flaky ...]", is what CI reads; it is also kept, with the
# table, in BUILD_DIR/test-logs/summary (tests/check-all.sh prints both
# passes' from there).
set -u
build=${1:-build}
fuzz_build=${2:-build-fuzz}
fuzz_seconds=${FUZZ_SECONDS:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
logdir="$top/$build/test-logs"
mkdir -p "$logdir"
export WPAD_BUILD="$top/$build"

SKIP_EXIT=77
passed=0
failed=0
skipped=0
flaky=0
rm -f "$logdir/summary"
declare -a rows

record() { # name PASS|FAIL|SKIP|FLAKY detail
	rows+=("$(printf '%-44s %-5s %s' "$1" "$2" "$3")")
	case $2 in
	PASS) passed=$((passed + 1)) ;;
	FLAKY) passed=$((passed + 1)) flaky=$((flaky + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
}

# The last non-blank line of a log, shortened: the reason of a skip or a
# failure, shown in its row.
last_line() {
	awk 'NF { l = $0 } END { print l }' "$1" | cut -c1-110
}

# --- Check programs: every test case counts once ---
run_check_program() { # label logname program args...
	local label=$1 logname=$2
	shift 2
	local log="$logdir/$logname.log" rc=0 summary
	"$@" >"$log" 2>&1 || rc=$?
	cat "$log"
	summary=$(grep -E '^[0-9]+%: Checks: ' "$log" | tail -n1)
	if [ -z "$summary" ]; then
		record "$label" FAIL "no Check summary (exit $rc)"
		return
	fi
	local checks fails errs
	checks=$(sed -E 's/.*Checks: ([0-9]+).*/\1/' <<<"$summary")
	fails=$(sed -E 's/.*Failures: ([0-9]+).*/\1/' <<<"$summary")
	errs=$(sed -E 's/.*Errors: ([0-9]+).*/\1/' <<<"$summary")
	passed=$((passed + checks - fails - errs))
	failed=$((failed + fails + errs))
	if [ $((fails + errs)) -eq 0 ] && [ "$rc" -eq 0 ]; then
		rows+=("$(printf '%-44s %-5s %s' "$label" PASS "$summary")")
	else
		[ $((fails + errs)) -eq 0 ] && failed=$((failed + 1))
		rows+=("$(printf '%-44s %-5s %s' "$label" FAIL "$summary (exit $rc)")")
	fi
}

run_check_program "unit (Check)" unit "$top/$build/tests/unit-tests"
if [ -x "$top/$build/tests/driver-conformance" ]; then
	run_check_program "driver conformance: sim" conformance-sim \
		"$top/$build/tests/driver-conformance" sim "radios=3,netdev=station"
fi

# --- integration tests ---
# Only test scripts may skip: exit 77 is libFuzzer's exit after a crash.
run_one() { # [--may-skip] name command...
	local may_skip=0
	[ "$1" = --may-skip ] && { may_skip=1; shift; }
	local name=$1
	shift
	local log="$logdir/$name.log"
	mkdir -p "$(dirname "$log")"
	local start end
	start=$(date +%s.%N)
	local rc=0
	"$@" >"$log" 2>&1 || rc=$?
	if [ $rc -eq 0 ]; then
		end=$(date +%s.%N)
		record "$name" PASS "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1fs", b - a }')"
	elif [ $rc -eq $SKIP_EXIT ] && [ $may_skip = 1 ]; then
		record "$name" SKIP "$(last_line "$log")"
	else
		record "$name" FAIL "exit $rc: $(last_line "$log") (log: $log)"
		echo "---- $name failed (exit $rc); last lines of $log:"
		tail -n 40 "$log"
		echo "----"
	fi
}

for prog in "$top/$build"/tests/integration/*; do
	[ -f "$prog" ] && [ -x "$prog" ] || continue
	case "$prog" in *.o | *.d) continue ;; esac
	run_one "integration/$(basename "$prog")" "$prog"
done
for script in "$top"/tests/integration/*.sh; do
	[ -f "$script" ] || continue
	run_one --may-skip "integration/$(basename "$script" .sh)" bash "$script"
done

# --- wired 802.1X against hostapd -Dwired and FreeRADIUS, one row per case
# (tests/integration/wired/run.sh: network namespaces, needs root) ---
wired_rows="$logdir/wired.rows"
: >"$wired_rows"
bash "$top/tests/integration/wired/run.sh" --rows "$wired_rows" >"$logdir/wired.log" 2>&1 || true
while IFS=$'\t' read -r name status detail; do
	case $status in
	PASS | FAIL | SKIP) record "wired/$name" "$status" "$detail" ;;
	*) record "wired/$name" FAIL "unknown status '$status': $detail" ;;
	esac
done <"$wired_rows"
[ -s "$wired_rows" ] || record wired FAIL "no results, see $logdir/wired.log"

# --- hwsim: the VM suite (tests/hwsim/README.md), one row per scenario ---
# SKIP rows (wpad scenarios before its nl80211 backend is committed, or
# WPAD_HWSIM=0) count as skipped; FLAKY ones passed on their retry. A
# sanitizer build runs only the scenarios that run wpad.
if [ "${WPAD_HWSIM:-1}" = 0 ]; then
	record hwsim SKIP "WPAD_HWSIM=0"
else
	hwsim_rows="$logdir/hwsim.rows"
	: >"$hwsim_rows"
	# check-all (WPAD_HWSIM_SPLIT=1) runs each wpad scenario once, in its
	# sanitizer pass; its release pass keeps the baselines and a smoke set
	# (header "# smoke: yes") of the release binary on the kernel.
	case $build in
	*san*) hwsim_only=--wpad-only ;;
	*) [ "${WPAD_HWSIM_SPLIT:-0}" = 1 ] && hwsim_only=--smoke-only || hwsim_only= ;;
	esac
	"$top/tests/hwsim/vm.sh" --build "$build" --rows "$hwsim_rows" $hwsim_only 2>&1 |
		tee "$logdir/hwsim.log"
	while IFS=$'\t' read -r name status detail; do
		case $status in
		PASS | FAIL | SKIP | FLAKY) record "hwsim/$name" "$status" "$detail" ;;
		*) record "hwsim/$name" FAIL "unknown status '$status': $detail" ;;
		esac
	done <"$hwsim_rows"
	[ -s "$hwsim_rows" ] || record hwsim FAIL "no results, see $logdir/hwsim.log"
fi

# --- fuzz smoke ---
# The fuzz targets are one build (build-fuzz/, libFuzzer + ASan) whichever
# pass runs them: the release pass fuzzes each for FUZZ_SECONDS, the
# sanitizer pass (check-all's second) only replays the seed corpus, so CI
# does not spend the same minutes twice.
case $build in
*san*) fuzz_mode=(-runs=0) ;;
*) fuzz_mode=(-max_total_time="$fuzz_seconds") ;;
esac
for target in "$top/$fuzz_build"/fuzz_*; do
	[ -x "$target" ] || continue
	name=$(basename "$target")
	seeds="$top/tests/fuzz/corpus/$name"
	if [ ! -d "$seeds" ]; then
		record "fuzz/$name" FAIL "no seed corpus at tests/fuzz/corpus/$name"
		continue
	fi
	scratch=$(mktemp -d)
	run_one "fuzz/$name" "$target" "${fuzz_mode[@]}" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "$scratch" "$seeds"
	rm -rf "$scratch"
done
if ! ls "$top/$fuzz_build"/fuzz_* >/dev/null 2>&1; then
	record "fuzz" FAIL "no fuzz targets built in $fuzz_build"
fi

line="check: $passed passed, $failed failed, $skipped skipped"
if [ $flaky -gt 0 ]; then
	line+=", $flaky flaky (passed on a retry; counted as passed):"
	for r in "${rows[@]}"; do
		read -r n s _ <<<"$r"
		[ "$s" = FLAKY ] && line+=" $n"
	done
fi
{
	echo
	echo "================ wpad test summary ($build) ================"
	printf '%s\n' "${rows[@]}"
	echo
	echo "$line"
} | tee "$logdir/summary.tmp"
mv "$logdir/summary.tmp" "$logdir/summary"
[ "$failed" -eq 0 ]
