#!/bin/bash
# wpactl_cli from a clone no other user can enter: the tree copied under a
# 0700 folder (as a clone in /root, which Debian makes 0700), its files
# readable by root alone, and run under umask 077. The test runs wpactl as
# an unprivileged user, so it must stage the program where that user can
# reach it; here that user provably cannot reach the build folder itself.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
build=${WPAD_BUILD:-$top/build}
user=wpad-dbus-test # tests/dbus/wpadtest.py USER

fail() {
	echo "FAIL: $*"
	exit 1
}
[ "$(id -u)" -eq 0 ] || fail "needs root (it runs wpactl as another user with runuser)"
for f in wpad wpactl; do
	[ -x "$build/$f" ] || fail "no $build/$f (make first)"
done

umask 077
priv=$(mktemp -d /tmp/wpad-private.XXXXXX) || fail "mktemp"
trap 'rm -rf "$priv"' EXIT
chmod 0700 "$priv"
clone=$priv/wpad
mkdir "$clone"
# The sources (not the build folders, nor git's), then the programs.
tar -C "$top" --exclude=./build --exclude=./build-san --exclude=./build-fuzz --exclude=./.git \
	-cf - . | tar -C "$clone" -xf - || fail "cannot copy the tree"
pbuild=$clone/$(basename "$build")
mkdir -p "$pbuild"
cp "$build/wpad" "$build/wpactl" "$pbuild/"
chmod -R go-rwx "$clone" # what a clone made under umask 077 looks like

getent passwd "$user" >/dev/null ||
	useradd --system --no-create-home --shell /usr/sbin/nologin "$user" || fail "useradd $user"
if runuser -u "$user" -- test -x "$pbuild/wpactl"; then
	fail "$user can reach $pbuild/wpactl: the test would prove nothing"
fi
echo "ok: $user cannot reach $pbuild/wpactl (parent $priv is $(stat -c %a "$priv"))"

out=$priv/wpactl_cli.out
rc=0
(cd "$clone" && WPAD_BUILD=$pbuild bash tests/integration/wpactl_cli.sh) >"$out" 2>&1 || rc=$?
cat "$out"
[ $rc -eq 0 ] || fail "wpactl_cli from a clone under a 0700 folder, umask 077: exit $rc"
grep -q '^ok: an unprivileged user lists the devices' "$out" ||
	fail "wpactl_cli passed without running wpactl as $user"
grep -qx PASS "$out" || fail "wpactl_cli printed no PASS"
echo "PASS: wpactl_cli from a clone under a 0700 folder, umask 077"
