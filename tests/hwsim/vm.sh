#!/bin/bash
# The hwsim suite's host side: boots one VM with the real Linux 802.11 stack
# (mac80211_hwsim) and runs a batch of scenarios in it; see README.md.
#
#   tests/hwsim/vm.sh [--build DIR] [--out DIR] [--rows FILE] [--wpad-only | --smoke-only] [--list]
#                     [--env NAME=VALUE]... [SCENARIO...]
#
# SCENARIO is a name from tests/hwsim/scenarios/ (without .sh) or a path to a
# script written the same way (the benchmark uses this). Without any, every
# scenario runs. Prints one line per scenario (PASS / FAIL / SKIP, or FLAKY
# for one that passed only on its retry, with the seconds it took), then the
# logs of the failures; exits 1 if any failed.
# --rows FILE also writes "NAME<TAB>STATUS<TAB>DETAIL" lines for run-checks.sh;
# --wpad-only leaves out the scenarios that do not run wpad (the baselines);
# --smoke-only keeps the baselines and the wpad scenarios headed "# smoke: yes"
# (check-all's release pass: its sanitizer pass runs every wpad scenario);
# --env passes a variable (value without blanks) to the scenarios.
#
# Environment: WPAD_HWSIM_CACHE (kernel cache, default ~/.cache/wpad-hwsim),
# WPAD_HWSIM_CPUS (2), WPAD_HWSIM_MEM (MiB, 1024), WPAD_HWSIM_NL80211=1 (run
# the wpad scenarios even before drivers/nl80211 is committed).
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
here=$top/tests/hwsim
build=build
out=""
rows=""
list_only=0
wpad_only=0
smoke_only=0
wanted=()
extra_env=()

usage() {
	sed -n '2,20s/^# \{0,1\}//p' "$0"
	exit 2
}

while [ $# -gt 0 ]; do
	case $1 in
	--build) build=$2; shift 2 ;;
	--out) out=$2; shift 2 ;;
	--rows) rows=$2; shift 2 ;;
	--list) list_only=1; shift ;;
	--wpad-only) wpad_only=1; shift ;;
	--smoke-only) smoke_only=1; shift ;;
	--env)
		case $2 in [A-Za-z_]*=*) ;; *) echo "vm.sh: --env NAME=VALUE" >&2; exit 2 ;; esac
		extra_env+=("$2")
		shift 2
		;;
	-h | --help) usage ;;
	-*) echo "vm.sh: unknown option $1" >&2; usage ;;
	*) wanted+=("$1"); shift ;;
	esac
done
case $build in /*) ;; *) build=$top/$build ;; esac
out=${out:-$build/hwsim}
case $out in /*) ;; *) out=$PWD/$out ;; esac
cache=${WPAD_HWSIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/wpad-hwsim}

note() { echo "hwsim: $*" >&2; }

# ---- which scenarios, and which of them can run ----

header() { # FILE KEY DEFAULT: the value of a "# KEY: value" line
	local v
	v=$(sed -n "s/^# $2: *//p" "$1" | head -n1)
	echo "${v:-$3}"
}

# wpad's scenarios need its nl80211 backend. Until drivers/nl80211 is
# committed they are listed as SKIP (never counted as passed); from then
# on they run, and a failure is a failure.
nl80211_committed() {
	[ "${WPAD_HWSIM_NL80211:-0}" = 1 ] && return 0
	if git -C "$top" rev-parse --git-dir >/dev/null 2>&1; then
		git -C "$top" ls-files -- drivers/nl80211 | grep -q '\.c$'
	else
		ls "$top"/drivers/nl80211/*.c >/dev/null 2>&1
	fi
}

declare -a names files notrun_names notrun_why
if [ ${#wanted[@]} -eq 0 ]; then
	for f in "$here"/scenarios/*.sh; do
		[ -f "$f" ] && wanted+=("$f")
	done
	explicit=0
else
	explicit=1 # asked for by name: run even if the backend is not committed
fi
for w in "${wanted[@]}"; do
	case $w in
	*/* | *.sh) f=$(cd "$(dirname "$w")" && pwd)/$(basename "$w") ;;
	*) f=$here/scenarios/$w.sh ;;
	esac
	[ -f "$f" ] || { echo "vm.sh: no scenario $w ($f)" >&2; exit 2; }
	name=$(basename "$f" .sh)
	needs=$(header "$f" needs "")
	[ $wpad_only = 1 ] && [ "$needs" != wpad-nl80211 ] && continue
	[ $smoke_only = 1 ] && [ "$needs" = wpad-nl80211 ] &&
		[ "$(header "$f" smoke no)" != yes ] && continue
	if [ "$needs" = wpad-nl80211 ] && [ $explicit = 0 ] && ! nl80211_committed; then
		notrun_names+=("$name")
		notrun_why+=("nl80211 backend missing (drivers/nl80211 not committed)")
		continue
	fi
	names+=("$name")
	files+=("$f")
done

if [ $list_only = 1 ]; then
	for i in "${!names[@]}"; do echo "${names[$i]}"; done
	for i in "${!notrun_names[@]}"; do echo "${notrun_names[$i]} (SKIP: ${notrun_why[$i]})"; done
	exit 0
fi

# ---- results ----

passed=0
failed=0
skipped=0
flaky=0
: "${rows:=/dev/null}"
[ "$rows" = /dev/null ] || : >"$rows"

row() { # NAME STATUS DETAIL
	printf 'hwsim/%-34s %-7s %s\n' "$1" "$2" "$3"
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$rows"
	case $2 in
	PASS) passed=$((passed + 1)) ;;
	FLAKY) passed=$((passed + 1)) flaky=$((flaky + 1)) ;;
	SKIP) skipped=$((skipped + 1)) ;;
	*) failed=$((failed + 1)) ;;
	esac
}

finish() {
	for i in "${!notrun_names[@]}"; do
		row "${notrun_names[$i]}" SKIP "${notrun_why[$i]}"
	done
	echo "hwsim: $passed passed, $failed failed, $skipped skipped$([ $flaky -eq 0 ] ||
		echo ", $flaky flaky (passed on the retry; counted as passed)")"
	[ $failed -eq 0 ]
	exit $?
}

fail_all() { # REASON: the VM could not run at all
	note "$1"
	for n in "${names[@]}"; do row "$n" FAIL "$1"; done
	finish
}

[ ${#names[@]} -gt 0 ] || finish

# ---- the kernel: Debian's, downloaded once per version into the cache ----

# Modules the VM loads by name; their dependencies come along, and so does
# every crypto module (the kernel asks for algorithms by name on its own).
ROOT_MODULES="virtio_pci 9pnet_virtio 9p mac80211_hwsim ccm gcm cmac ctr michael_mic
af_alg algif_hash algif_skcipher algif_aead pkcs8_key_parser vrf veth tun bridge"
CRYPTO_DIRS="kernel/crypto kernel/arch/x86/crypto kernel/lib/crypto"

kernel_unpack() { # PKG VERSION DEST: fetch the .deb, keep vmlinuz and the modules we need
	local pkg=$1 ver=$2 dest=$3 tmp dl kver full m deps
	tmp=$(mktemp -d "$cache/.unpack.XXXXXX") || return 1
	# A folder apt's unprivileged _apt user can write to (the cache may be
	# under a private home).
	dl=$(mktemp -d) && chmod 755 "$dl" || return 1
	note "downloading $pkg $ver (once; cached in $cache)"
	if ! (cd "$dl" && apt-get download -q "$pkg=$ver" >&2); then
		if [ "$(id -u)" = 0 ]; then
			note "apt-get download failed; updating the package lists and retrying"
			apt-get update -q >&2 && (cd "$dl" && apt-get download -q "$pkg=$ver" >&2)
		fi || { rm -rf "$tmp" "$dl"; return 1; }
	fi
	dpkg-deb -x "$dl"/*.deb "$tmp/full" || { rm -rf "$tmp" "$dl"; return 1; }
	rm -rf "$dl"
	kver=$(ls "$tmp/full/lib/modules")
	full=$tmp/full/lib/modules/$kver
	depmod -b "$tmp/full" "$kver" || { rm -rf "$tmp"; return 1; }
	mkdir -p "$tmp/keep/lib/modules/$kver"
	deps=$( (
		for m in $ROOT_MODULES; do echo "$m"; done
		for d in $CRYPTO_DIRS; do
			[ -d "$full/$d" ] && find "$full/$d" -name '*.ko*' -printf '%f\n' | sed 's/\.ko.*//'
		done
	) | sort -u | while read -r m; do
		modprobe -d "$tmp/full" -S "$kver" --show-depends "$m" 2>/dev/null
	done | awk '$1 == "insmod" { print $2 }' | sort -u)
	for m in $deps; do
		m=${m#"$full"/}
		mkdir -p "$tmp/keep/lib/modules/$kver/$(dirname "$m")"
		cp "$full/$m" "$tmp/keep/lib/modules/$kver/$m"
	done
	cp "$full/modules.order" "$full/modules.builtin" "$full/modules.builtin.modinfo" \
		"$tmp/keep/lib/modules/$kver/" 2>/dev/null
	depmod -b "$tmp/keep" "$kver" || { rm -rf "$tmp"; return 1; }
	for m in $ROOT_MODULES; do
		modprobe -d "$tmp/keep" -S "$kver" --show-depends "$m" >/dev/null 2>&1 ||
			{ note "module $m missing from $pkg"; rm -rf "$tmp"; return 1; }
	done
	mkdir -p "$dest"
	cp "$tmp"/full/boot/vmlinuz-* "$dest/vmlinuz"
	mv "$tmp/keep" "$dest/root"
	echo "$kver" >"$dest/kver"
	rm -rf "$tmp"
	touch "$dest/ready"
}

# A cached kernel made before a module joined ROOT_MODULES lacks it: such a
# cache is unpacked again (the suite runs under one lock, so no other VM is
# reading it meanwhile).
kernel_has_modules() { # KDIR
	local kver m
	kver=$(cat "$1/kver" 2>/dev/null) || return 1
	for m in $ROOT_MODULES; do
		modprobe -d "$1/root" -S "$kver" --show-depends "$m" >/dev/null 2>&1 || return 1
	done
}

kernel_prepare() { # sets KDIR
	local pkg ver
	mkdir -p "$cache" || return 1
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')
	ver=$([ -n "$pkg" ] && apt-cache policy "$pkg" 2>/dev/null | awk '$1 == "Candidate:" { print $2 }')
	if [ -z "$pkg" ] || [ -z "$ver" ] || [ "$ver" = "(none)" ]; then
		# No package lists (offline?): the newest kernel already cached.
		KDIR=$(ls -d "$cache"/linux-image-*/ 2>/dev/null | sort -V | tail -n1)
		KDIR=${KDIR%/}
		[ -n "$KDIR" ] && [ -f "$KDIR/ready" ] && { note "apt has no linux-image-amd64; using $KDIR"; return 0; }
		note "cannot resolve linux-image-amd64 (apt-cache depends) and nothing cached"
		return 1
	fi
	KDIR=$cache/${pkg}_$ver
	[ -f "$KDIR/ready" ] && kernel_has_modules "$KDIR" && return 0
	(
		flock 9 || true # two runs at once: one downloads
		[ -f "$KDIR/ready" ] && kernel_has_modules "$KDIR" && exit 0
		rm -rf "$KDIR"
		kernel_unpack "$pkg" "$ver" "$KDIR" || exit 1
		# Keep the two newest versions.
		ls -d "$cache"/linux-image-*/ | sort -V | head -n -2 | xargs -r rm -rf
	) 9>"$cache/.lock"
}

# ---- the initramfs: busybox, our init, the modules ----

initramfs_build() { # DEST
	local root=$out/.initramfs busybox
	busybox=$(command -v busybox || echo /bin/busybox)
	if ! [ -x "$busybox" ] || ldd "$busybox" >/dev/null 2>&1; then
		note "no static busybox (package busybox-static)"
		return 1
	fi
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/lib"
	cp "$busybox" "$root/bin/busybox"
	cp "$here/init" "$root/init"
	chmod 755 "$root/init"
	cp -a "$KDIR/root/lib/modules" "$root/lib/"
	# cfg80211 loads the regulatory database through the firmware loader,
	# which looks in the initramfs, not in the chroot.
	if [ -e /lib/firmware/regulatory.db ] && [ -e /lib/firmware/regulatory.db.p7s ]; then
		mkdir -p "$root/lib/firmware"
		cp -L /lib/firmware/regulatory.db /lib/firmware/regulatory.db.p7s "$root/lib/firmware/"
	else
		note "no /lib/firmware/regulatory.db (package wireless-regdb): the VM stays in the world domain"
	fi
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$1" || return 1
	rm -rf "$root"
}

# ---- run ----

for tool in qemu-system-x86_64 apt-get dpkg-deb depmod modprobe cpio gzip; do
	command -v "$tool" >/dev/null 2>&1 ||
		fail_all "$tool not installed (scripts/install-deps.sh test)"
done
[ -x "$build/wpad" ] || fail_all "no $build/wpad (make first)"
[ -x "$build/tests/hwsim-ctl" ] || fail_all "no $build/tests/hwsim-ctl (make $build/tests/hwsim-ctl)"

rm -rf "$out"
mkdir -p "$out"
kernel_prepare || fail_all "no kernel for the VM (see the lines above)"
initramfs_build "$out/initramfs.gz" || fail_all "cannot build the initramfs"

budget=60 # boot and power-off
for i in "${!names[@]}"; do
	printf '%s %s %s %s\n' "${names[$i]}" "$(header "${files[$i]}" radios 2)" \
		"$(header "${files[$i]}" timeout 120)" "${files[$i]}"
	budget=$((budget + 2 * $(header "${files[$i]}" timeout 120) + 10)) # a failed scenario runs twice
done >"$out/job.list"
printf 'HWSIM_TOP=%s\nHWSIM_BUILD=%s\nHWSIM_EXTRA_ENV="%s"\n' "$top" "$build" \
	"${extra_env[*]}" >"$out/job.env"

note "booting $(basename "$KDIR") for ${#names[@]} scenario(s); logs in $out"
qemu-system-x86_64 -accel tcg -m "${WPAD_HWSIM_MEM:-1024}" -smp "${WPAD_HWSIM_CPUS:-2}" \
	-nographic -no-reboot -nic none \
	-kernel "$KDIR/vmlinuz" -initrd "$out/initramfs.gz" \
	-append "console=ttyS0 panic=-1 quiet loglevel=4" \
	-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
	-virtfs "local,path=$out,mount_tag=out,security_model=none" \
	</dev/null >"$out/console.log" 2>&1 &
qemu=$!

# Follow the results as the guest writes them.
shown=0
started=$SECONDS
report_new() {
	local n
	[ -f "$out/results" ] || return 0
	n=$(wc -l <"$out/results")
	while [ "$shown" -lt "$n" ]; do
		shown=$((shown + 1))
		sed -n "${shown}p" "$out/results" | {
			read -r name status secs rc
			# A scenario may add a line of its own to its row (NAME/note).
			note=$(head -n1 "$out/$name/note" 2>/dev/null)
			# The VM's init retries a failed scenario once and keeps the
			# first attempt's log: a pass after that is FLAKY, never PASS.
			if [ "$status" = PASS ] && [ -f "$out/$name/attempt1-scenario.log" ]; then
				echo "$name FLAKY ${secs}s (${note:-passed on the 2nd attempt}; 1st attempt: $out/$name/attempt1-scenario.log)"
			elif [ "$status" = PASS ]; then
				echo "$name PASS ${secs}s${note:+ ($note)}"
			else
				echo "$name FAIL ${secs}s, exit $rc${note:+ ($note)}"
			fi
		} >>"$out/.rows"
		tail -n1 "$out/.rows" | { read -r n s d; printf 'hwsim: %-34s %s %s\n' "$n" "$s" "$d" >&2; }
	done
}
: >"$out/.rows"
timed_out=0
while kill -0 $qemu 2>/dev/null; do
	report_new
	if [ $((SECONDS - started)) -gt $budget ]; then
		note "the VM ran longer than ${budget}s; stopping it"
		kill $qemu
		timed_out=1
		break
	fi
	sleep 1
done
wait $qemu
qrc=$?
report_new
note "VM finished in $((SECONDS - started))s (qemu exit $qrc)"

# One row per scenario, in order; missing results are failures.
declare -A result
while read -r n s d; do result[$n]="$s $d"; done <"$out/.rows"
failed_names=()
for n in "${names[@]}"; do
	r=${result[$n]:-}
	if [ -z "$r" ]; then
		why="no result: the VM stopped early"
		[ $timed_out = 1 ] && why="no result: the VM timed out"
		row "$n" FAIL "$why"
		failed_names+=("$n")
	else
		row "$n" "${r%% *}" "${r#* }"
		case ${r%% *} in PASS | FLAKY) ;; *) failed_names+=("$n") ;; esac
	fi
done

for n in "${failed_names[@]}"; do
	echo
	echo "======== hwsim/$n: logs ($out/$n)"
	if [ -f "$out/$n/scenario.log" ]; then
		cat "$out/$n/scenario.log"
	else
		echo "(no scenario log)"
	fi
	for f in "$out/$n"/*.log; do
		[ -f "$f" ] || continue
		case $f in */scenario.log) continue ;; esac
		echo "---- $(basename "$f") (last 40 lines)"
		tail -n 40 "$f"
	done
done
for n in "${names[@]}"; do
	r=${result[$n]:-}
	[ "${r%% *}" = FLAKY ] || continue
	echo
	echo "======== hwsim/$n: FLAKY; its failed 1st attempt ($out/$n/attempt1-scenario.log, last 40 lines)"
	tail -n 40 "$out/$n/attempt1-scenario.log"
done
if [ ${#failed_names[@]} -gt 0 ] && ! grep -q . "$out/results" 2>/dev/null; then
	echo "---- VM console (last 40 lines of $out/console.log)"
	tail -n 40 "$out/console.log"
fi
finish
