# Shared by the guest halves of the hwsim benches (bench/hwsim-*-guest.sh),
# which tests/hwsim/vm.sh runs like scenarios, after tests/hwsim/lib.sh.

elapsed() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; } # T0 T1: seconds

# A field of /proc/PID/status in kB (VmRSS, RssAnon, ...), or n/a.
status_kib() { awk -v k="$2:" '$1 == k { print $2 }' "/proc/$1/status" 2>/dev/null || echo n/a; } # PID FIELD

# SIGTERM, up to 10 s to go, then SIGKILL; reaps it.
stop_pid() {
	local i
	kill -TERM "$1" 2>/dev/null || return 0
	for i in $(seq 50); do
		kill -0 "$1" 2>/dev/null || break
		sleep 0.2
	done
	kill -KILL "$1" 2>/dev/null || true
	wait "$1" 2>/dev/null || true
}
