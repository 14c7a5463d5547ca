#!/bin/bash
# Two wpad processes, an access point and a station, both under valgrind:
# connect, the station leaves and joins again (the AP rekeys the group on
# the leave, RekeyOnStationLeave=true), then both stop on SIGTERM saying
# goodbye on the air. Any valgrind error, or a definite or indirect leak,
# fails the test (exit 9 from the stopped process). The sanitizer build
# has ASan and LeakSanitizer instead.
#
# Under the sanitizers valgrind cannot run: a skip (exit 77, counted as
# skipped by tests/run-checks.sh), never a pass.
case "${WPAD_BUILD:-}" in
*-san)
	echo "skip: valgrind cannot run a sanitized build (ASan and LeakSanitizer check it instead)"
	exit 77
	;;
esac
source "$(dirname "$0")/e2e_lib.bash"
command -v valgrind >/dev/null || e2e_fail "valgrind is missing (scripts/install-deps.sh test)"
# valgrind runs wpad ~30 times slower: every wait is longer.
E2E_SLOW=$((E2E_SLOW * 4))
e2e_init valgrind
e2e_medium
AP=02:0a:00:00:00:00
e2e_ap ap $AP RekeyOnStationLeave=true
e2e_station sta 02:5a:00:00:00:00
vg() { # name: the prefix that runs wpad under valgrind, its report in $T/NAME.vg
	echo valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
		--error-exitcode=9 --log-file="$T/$1.vg"
}
e2e_start ap $(vg ap)
e2e_wait ap "BSS '$E2E_SSID' on channel 6"
e2e_start sta $(vg sta)
e2e_wait sta "connected to '$E2E_SSID' via $AP"
e2e_wait ap "authorized"

e2e_stop sta
e2e_wait ap "sent deauthentication, reason 3"
e2e_wait ap "GTK rekey done"
e2e_start sta $(vg sta2)
e2e_wait sta "connected to '$E2E_SSID' via $AP" 60 2
e2e_wait ap "authorized" 60 2

e2e_stop ap
e2e_wait sta "deauthenticated by $AP: reason 3" 10
e2e_stop sta
for f in "$T"/*.vg; do
	if [ -s "$f" ]; then
		echo "==== $f"
		cat "$f"
		e2e_fail "valgrind reported errors"
	fi
done
echo "e2e_valgrind: AP and station clean under valgrind (connect, leave, rekey, rejoin, stop)"
