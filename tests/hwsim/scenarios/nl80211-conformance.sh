# The driver conformance suite (tests/driver/conformance.c) against wpad's
# nl80211 backend on three hwsim radios: the same contract the simulated
# radio passes in `make check`.
# radios: 3
# timeout: 420
# needs: wpad-nl80211
ns_new conf
radio_to_ns 0 conf
radio_to_ns 1 conf
radio_to_ns 2 conf
# The namespace holds exactly these radios: the backend's defaults see them.
log "driver-conformance nl80211 \"$CONFORMANCE_OPTIONS\""
nsx conf env CK_VERBOSITY=verbose "$HWSIM_BUILD/tests/driver-conformance" nl80211 \
	"$CONFORMANCE_OPTIONS" 2>&1 | tee "$HWSIM_OUT/conformance.log"
grep -Eq '^100%: Checks: [1-9]' "$HWSIM_OUT/conformance.log" || fail "the suite did not pass every check"
