#!/bin/bash
# Checks every project #include against the layer table in
# docs/architecture.md ("Who may include whom"), so the include graph stays
# acyclic, the driver backends stay apart and private headers stay private.
set -u
cd "$(dirname "$0")/../.."

# (No subshells below: the checker runs once per include.)

# A role's or a backend's private header: used only by its own directory.
is_private() {
	case "${1##*/}" in
	*_i.h | *_internal.h | *-internal.h) return 0 ;;
	esac
	return 1
}

# Sets LAYER to the layer of source file $1, from its directory; "unknown"
# for a directory the table does not name (a new one must be added there
# and here first).
layer_of() {
	case "${1%/*}" in
	daemon/core | daemon/codec | daemon/crypto) LAYER=base ;;
	daemon/config | daemon/store) LAYER=config ;;
	daemon/rsn | daemon/sae | daemon/pae | daemon/radius) LAYER=proto ;;
	daemon/station | daemon/ap | daemon/wired) LAYER=role ;;
	daemon) LAYER=daemon ;;
	drivers) LAYER=drivers ;;
	drivers/*/*) LAYER=unknown ;;
	drivers/*) LAYER=backend ;;
	eap | eap/*) LAYER=eap ;;
	dbus) LAYER=dbus ;;
	wpactl) LAYER=wpactl ;;
	tests | tests/* | bench | bench/*) LAYER=tests ;;
	*) LAYER=unknown ;;
	esac
}

# Returns 0 when file $1 may include project header $2.
allowed() {
	local from=$1 inc=$2
	local low="daemon/core/"
	local base="daemon/core/ daemon/codec/ daemon/crypto/"
	local proto="daemon/rsn/ daemon/sae/ daemon/pae/ daemon/radius/"
	local prefixes LAYER
	layer_of "$from"
	[ "$LAYER" = unknown ] && return 1
	[ "$LAYER" = tests ] && return 0
	# Headers of the same directory are always fine; a private header is
	# fine nowhere else, whoever asks.
	[ "${inc%/*}" = "${from%/*}" ] && return 0
	is_private "$inc" && return 1
	case "$from" in
	daemon/core/*) prefixes="$low" ;;
	daemon/codec/* | daemon/crypto/*) prefixes="$low" ;;
	daemon/config/* | daemon/store/*) prefixes="$base daemon/config/ daemon/store/" ;;
	# The shared driver files (driver.h, the registry) know every backend;
	# a backend knows only them.
	drivers/*/*) prefixes="$base drivers/SHARED" ;;
	drivers/*) prefixes="$base drivers/" ;;
	eap/*) prefixes="$base eap/" ;;
	daemon/rsn/* | daemon/sae/* | daemon/pae/* | daemon/radius/*) prefixes="$base eap/ $proto drivers/driver.h" ;;
	daemon/station/*) prefixes="$base eap/ $proto daemon/config/ daemon/store/ drivers/driver.h daemon/station/" ;;
	daemon/ap/*) prefixes="$base eap/ $proto daemon/config/ daemon/store/ drivers/driver.h daemon/ap/" ;;
	daemon/wired/*) prefixes="$base eap/ $proto daemon/config/ daemon/store/ drivers/driver.h daemon/wired/" ;;
	dbus/*) prefixes="daemon/ drivers/driver.h dbus/" ;;
	daemon/main.c) prefixes="daemon/ drivers/ eap/ dbus/" ;;
	daemon/*) prefixes="daemon/ drivers/driver.h eap/" ;;
	wpactl/*) prefixes="$low dbus/errors.h dbus/error-catalogue.h daemon/version.h wpactl/" ;;
	*) return 1 ;;
	esac
	for p in $prefixes; do
		case "$p" in
		drivers/SHARED)
			# drivers/X.h, never drivers/<other backend>/...
			case "$inc" in drivers/*/*) ;; drivers/*) return 0 ;; esac
			;;
		*) case "$inc" in "$p"*) return 0 ;; esac ;;
		esac
	done
	return 1
}

bad=0
checked=0
while IFS= read -r file; do
	file=${file#./}
	layer_of "$file"
	if [ "$LAYER" = unknown ]; then
		echo "unknown directory: $file (add ${file%/*} to the table in docs/architecture.md and to $0)"
		bad=$((bad + 1))
		continue
	fi
	while IFS= read -r inc; do
		checked=$((checked + 1))
		# Only paths rooted at the top of the tree are project headers.
		case "$inc" in daemon/* | drivers/* | eap/* | dbus/* | wpactl/* | tests/* | bench/*) ;; *) continue ;; esac
		if ! allowed "$file" "$inc"; then
			echo "layer violation: $file includes $inc"
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find . \( -path './build*' -o -path './.git' -o -path ./tests -o -path ./bench \) -prune \
	-o -name '*.[ch]' -print | sort)

echo "checked $checked includes, $bad violations"
# Prove the checker can fail: every rule refuses a pair of its own.
for pair in "daemon/core/loop.c daemon/station/station.h" "daemon/rsn/supplicant.c daemon/ap/ap.h" \
	"daemon/station/station.c daemon/ap/ap.h" "daemon/config/ini.c daemon/station/station.h" \
	"drivers/sim/sim.c daemon/station/station.h" "daemon/wpad.c dbus/errors.h" \
	"daemon/newdir/x.c daemon/core/log.h" "daemon/newdir/x.c daemon/station/station_i.h" \
	"drivers/sim/deeper/x.c drivers/driver.h" "tools/x.c daemon/core/log.h" \
	"drivers/sim/sim.c drivers/nl80211/nl80211.h" "drivers/nl80211/nl80211.c drivers/sim/sim.h" \
	"drivers/wired/wired.c drivers/sim/medium.h" "drivers/wired/wired.c drivers/nl80211/nl80211-parse.h" \
	"dbus/station.c daemon/station/station_i.h" "daemon/wpad.c daemon/ap/ap_internal.h" \
	"daemon/main.c drivers/sim/medium-internal.h" "drivers/driver.c drivers/sim/medium-internal.h" \
	"daemon/station/connect.c daemon/rsn/rsn_internal.h"; do
	# shellcheck disable=SC2086
	if allowed $pair; then
		echo "checker self-test failed: allowed $pair"
		exit 1
	fi
done
# ... and still allows what the table allows.
for pair in "drivers/sim/sim.c drivers/driver.h" "drivers/wired/wired.c drivers/registry.h" \
	"drivers/sim/sim.c drivers/sim/medium-internal.h" "drivers/registry.c drivers/sim/sim.h" \
	"daemon/station/sme.c daemon/station/station_i.h" "daemon/main.c drivers/nl80211/nl80211.h" \
	"tests/unit/test_station.c daemon/station/station_i.h"; do
	# shellcheck disable=SC2086
	if ! allowed $pair; then
		echo "checker self-test failed: refused $pair"
		exit 1
	fi
done
[ "$bad" -eq 0 ]
