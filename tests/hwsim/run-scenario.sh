#!/bin/bash
# Runs one scenario inside the VM's chroot: run-scenario.sh FILE
# The VM's init calls it with the environment described in lib.sh; exit
# status 0 is a pass, anything else a failure (there is no "skip"). The init
# runs a failed scenario once more, keeping the first attempt's log as
# attempt1-scenario.log; vm.sh reports a pass after that as FLAKY.
set -euo pipefail
# shellcheck source=tests/hwsim/lib.sh
. "$HWSIM_TOP/tests/hwsim/lib.sh"

on_exit() {
	local rc=$?
	if [ "$rc" -ne 0 ]; then
		log "scenario failed (exit $rc)"
		hwsim_diagnostics 2>&1 || true
	fi
	exit "$rc"
}
trap on_exit EXIT
trap 'fail "killed: the scenario ran out of time"' TERM

log "scenario $HWSIM_NAME: radios $HWSIM_PHYS ($HWSIM_IFACES)"
# shellcheck source=/dev/null
. "$1"
log "scenario $HWSIM_NAME passed"
