# The driver conformance suite (tests/driver/conformance.c) against wpad's
# nl80211 backend on three hwsim radios: the same contract the simulated
# radio passes in `make check`.
# radios: 3
# timeout: 420
# needs: wpad-nl80211

# Cases the kernel's own rules keep from passing on mac80211, whatever the
# backend does (docs/nl80211.md, "On mac80211_hwsim"). They may fail; every
# other case must pass. One that starts passing is noted in the row.
expected_failures=(
	# none since 2026-12-05: mgmt_tx_status_and_registration failed only
	# because the harness matched TX status by cookie alone (docs/nl80211.md)
)

ns_new conf
radio_to_ns 0 conf
radio_to_ns 1 conf
radio_to_ns 2 conf
# The namespace holds exactly these radios: the backend's defaults see them.
log "driver-conformance nl80211 \"$CONFORMANCE_OPTIONS\""
rc=0
nsx conf env CK_VERBOSITY=verbose "$HWSIM_BUILD/tests/driver-conformance" nl80211 \
	"$CONFORMANCE_OPTIONS" >"$HWSIM_OUT/conformance.log" 2>&1 || rc=$?
cat "$HWSIM_OUT/conformance.log"
summary=$(grep -E '^[0-9]+%: Checks: ' "$HWSIM_OUT/conformance.log" | tail -n1)
[ -n "$summary" ] || fail "no Check summary (exit $rc)"

# Check's verbose lines: FILE:LINE:P|F|E:TCASE:TEST:ITERATION: message
mapfile -t passed < <(awk -F: '$3 == "P" { print $5 }' "$HWSIM_OUT/conformance.log")
mapfile -t failed < <(awk -F: '$3 == "F" || $3 == "E" { print $5 }' "$HWSIM_OUT/conformance.log")
[ $((${#passed[@]} + ${#failed[@]})) -gt 0 ] || fail "no test results in the log"
unexpected=() xfail=() xpass=()
for t in "${failed[@]}"; do
	if [[ " ${expected_failures[*]} " == *" $t "* ]]; then xfail+=("$t"); else unexpected+=("$t"); fi
done
for t in "${expected_failures[@]}"; do
	if [[ " ${passed[*]} " == *" $t "* ]]; then xpass+=("$t"); fi
done
note="${#passed[@]}/$((${#passed[@]} + ${#failed[@]})) cases"
[ ${#xfail[@]} -eq 0 ] || note+="; expected failures: ${xfail[*]}"
[ ${#xpass[@]} -eq 0 ] || note+="; now passing, drop from the list: ${xpass[*]}"
echo "$note" >"$HWSIM_OUT/note"
log "$summary -- $note"
[ ${#unexpected[@]} -eq 0 ] || fail "cases failed: ${unexpected[*]}"
