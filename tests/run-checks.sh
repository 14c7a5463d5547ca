#!/bin/bash
# Runs every test group and prints one table and one closing line.
#   tests/run-checks.sh BUILD_DIR FUZZ_BUILD_DIR
# Groups: Check unit suites; integration programs (tests/integration/*.c,
# built into BUILD_DIR) and scripts (tests/integration/*.sh); a smoke run of
# each libFuzzer target from its seed corpus. A group that cannot run is a
# failure, never a silent pass.
set -u
build=${1:-build}
fuzz_build=${2:-build-fuzz}
fuzz_seconds=${FUZZ_SECONDS:-3}
top=$(cd "$(dirname "$0")/.." && pwd)
logdir="$top/$build/test-logs"
mkdir -p "$logdir"
export WPAD_BUILD="$top/$build"

passed=0
failed=0
notrun=0
declare -a rows

record() { # name result detail
	rows+=("$(printf '%-44s %-5s %s' "$1" "$2" "$3")")
	if [ "$2" = PASS ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
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
		"$top/$build/tests/driver-conformance" sim "radios=3"
fi

# --- integration tests ---
run_one() { # name command...
	local name=$1
	shift
	local log="$logdir/$name.log"
	mkdir -p "$(dirname "$log")"
	local start end
	start=$(date +%s.%N)
	if "$@" >"$log" 2>&1; then
		end=$(date +%s.%N)
		record "$name" PASS "$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1fs", b - a }')"
	else
		local rc=$?
		record "$name" FAIL "exit $rc, log: $log"
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
	run_one "integration/$(basename "$script" .sh)" bash "$script"
done

# --- hwsim: the VM suite (tests/hwsim/README.md), one row per scenario ---
# NOT-RUN rows (wpad scenarios before its nl80211 backend is committed, or
# WPAD_HWSIM=0) count neither as passed nor as failed. A sanitizer build
# runs only the scenarios that run wpad.
if [ "${WPAD_HWSIM:-1}" = 0 ]; then
	rows+=("$(printf '%-44s %-5s %s' hwsim NOT-RUN "WPAD_HWSIM=0")")
	notrun=$((notrun + 1))
else
	hwsim_rows="$logdir/hwsim.rows"
	: >"$hwsim_rows"
	case $build in *san*) hwsim_only=--wpad-only ;; *) hwsim_only= ;; esac
	"$top/tests/hwsim/vm.sh" --build "$build" --rows "$hwsim_rows" $hwsim_only 2>&1 |
		tee "$logdir/hwsim.log"
	while IFS=$'\t' read -r name status detail; do
		if [ "$status" = NOT-RUN ]; then
			rows+=("$(printf '%-44s %-5s %s' "hwsim/$name" NOT-RUN "$detail")")
			notrun=$((notrun + 1))
		else
			record "hwsim/$name" "$status" "$detail"
		fi
	done <"$hwsim_rows"
	[ -s "$hwsim_rows" ] || record hwsim FAIL "no results, see $logdir/hwsim.log"
fi

# --- fuzz smoke ---
for target in "$top/$fuzz_build"/fuzz_*; do
	[ -x "$target" ] || continue
	name=$(basename "$target")
	seeds="$top/tests/fuzz/corpus/$name"
	if [ ! -d "$seeds" ]; then
		record "fuzz/$name" FAIL "no seed corpus at tests/fuzz/corpus/$name"
		continue
	fi
	scratch=$(mktemp -d)
	run_one "fuzz/$name" "$target" -max_total_time="$fuzz_seconds" -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 "$scratch" "$seeds"
	rm -rf "$scratch"
done
if ! ls "$top/$fuzz_build"/fuzz_* >/dev/null 2>&1; then
	record "fuzz" FAIL "no fuzz targets built in $fuzz_build"
fi

echo
echo "================ wpad test summary ($build) ================"
printf '%s\n' "${rows[@]}"
echo
echo "check: $passed passed, $failed failed$([ $notrun -eq 0 ] || echo ", $notrun not run")"
[ "$failed" -eq 0 ]
