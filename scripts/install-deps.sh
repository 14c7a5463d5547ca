#!/bin/sh
# Installs what wpad needs on Debian 12, as root.
#   scripts/install-deps.sh build   compilers and libraries to build wpad, and
#                                   what `make demo` runs (a private D-Bus bus)
#   scripts/install-deps.sh test    the above, plus everything `make check` runs
#   scripts/install-deps.sh bench   build, plus what `make bench` compares with
# Packages already present are not fetched again, so a second run is quick.
set -eu

BUILD_PKGS="build-essential pkg-config libssl-dev libnl-3-dev libnl-genl-3-dev libdbus-1-dev"
# make demo (scripts/demo.sh): dbus-daemon runs the demo's private bus,
# systemd brings busctl, one of the commands the demo prints.
BUILD_PKGS="$BUILD_PKGS dbus-daemon systemd"
# check: unit tests; clang + libclang-rt: libFuzzer targets; valgrind: leak
# checks; tshark: independent decoding of the simulated medium's captures;
# iproute2: TAP data plane tests. qemu-system-x86 .. dbus: the hwsim suite
# (tests/hwsim/), a VM running the real 802.11 stack against hostapd,
# wpa_supplicant and iwd (wireless-regdb: the regulatory database for its
# kernel); the kernel itself is fetched with apt-get download.
# dbus-daemon .. util-linux: the D-Bus tests (tests/dbus/): a private bus,
# python3-dbus with GLib, busctl (systemd) and gdbus as clients, useradd
# and runuser for the unprivileged caller. groff-base: wpactl's test renders
# the man pages (docs/man/). dnsmasq-base: the DHCP server on the wired side
# of the bridged-AP scenarios (tests/hwsim, no service installed).
# freeradius: the RADIUS server of the wired 802.1X tests (tests/integration/
# wired/, started by them with a configuration they write). network-manager:
# the hwsim scenarios wpad-nm-* run the real NetworkManager (and nmcli)
# against wpad's fi.w1.wpa_supplicant1 front (issue 19). See NO_START_PKGS
# below for why installing these two is harmless.
# openssl: the command that makes the 802.1X tests' certificates (wired and hwsim).
TEST_PKGS="check clang libclang-rt-14-dev valgrind tshark iproute2 iputils-ping procps
qemu-system-x86 busybox-static kmod cpio hostapd wpasupplicant iwd iw tcpdump dbus wireless-regdb
dbus-daemon dbus-bin python3-dbus python3-gi libglib2.0-bin systemd passwd util-linux
groff-base dnsmasq-base freeradius network-manager openssl"

# Packages whose postinst would start a daemon: network-manager's would take
# over the machine's networking, freeradius's would listen on the RADIUS
# ports the tests use. network-manager's postinst runs `deb-systemd-invoke start
# NetworkManager.service` when systemd is PID 1 (without systemd it starts
# nothing) and enables the unit for the next boot. The tests start their own
# NetworkManager inside the hwsim VM only, so on a fresh install these are
# installed with starts denied (policy-rc.d, which deb-systemd-invoke obeys)
# and their units disabled. An installation the user already had is left as is.
NO_START_PKGS="network-manager freeradius"
NO_START_UNITS="NetworkManager.service NetworkManager-wait-online.service NetworkManager-dispatcher.service
freeradius.service"

# hostapd + wpasupplicant: the idle-memory comparison of bench/memory.sh (in
# a network namespace: iproute2).
BENCH_PKGS="hostapd wpasupplicant iproute2 procps openssl"

case "${1:-build}" in
build) pkgs="$BUILD_PKGS" ;;
test) pkgs="$BUILD_PKGS $TEST_PKGS" ;;
bench) pkgs="$BUILD_PKGS $BENCH_PKGS" ;;
*)
	echo "usage: $0 build|test|bench" >&2
	exit 2
	;;
esac

missing=""
for p in $pkgs; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$status" in
	*" installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "install-deps: all packages present"
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "install-deps: missing packages:$missing" >&2
	echo "install-deps: run this script as root (sudo $0 ${1:-build})" >&2
	exit 1
fi

echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q

no_start=""
rest=""
for p in $missing; do
	case " $NO_START_PKGS " in
	*" $p "*) no_start="$no_start $p" ;;
	*) rest="$rest $p" ;;
	esac
done
if [ -n "$rest" ]; then
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $rest
fi
if [ -n "$no_start" ]; then
	# A policy-rc.d of the machine's own (containers have one) stays; else a
	# temporary one that denies every start (exit 101) during this install.
	own_policy=""
	if [ ! -e /usr/sbin/policy-rc.d ]; then
		own_policy=/usr/sbin/policy-rc.d
		printf '#!/bin/sh\n# install-deps.sh: no service starts while installing test packages\nexit 101\n' \
			>"$own_policy"
		chmod 755 "$own_policy"
		trap 'rm -f "$own_policy"' EXIT INT TERM
	fi
	# shellcheck disable=SC2086
	apt-get install -y -q --no-install-recommends $no_start
	[ -z "$own_policy" ] || rm -f "$own_policy"
	if [ -d /run/systemd/system ]; then
		# shellcheck disable=SC2086
		systemctl disable $NO_START_UNITS >/dev/null 2>&1 || true
		echo "install-deps: installed$no_start without starting it; its units are disabled" \
			"(the tests start NetworkManager themselves, in the hwsim VM)"
	fi
fi
