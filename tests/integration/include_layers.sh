#!/bin/bash
# Checks every project #include against the layer table in
# docs/architecture.md, so the include graph stays acyclic.
set -u
cd "$(dirname "$0")/../.."

# Returns 0 when a file in directory $1 may include project header $2.
allowed() {
	local from=$1 inc=$2
	local low="daemon/core/"
	local base="daemon/core/ daemon/codec/ daemon/crypto/"
	local proto="daemon/rsn/ daemon/sae/ daemon/pae/ daemon/radius/"
	local prefixes
	case "$from" in
	daemon/core/*) prefixes="$low" ;;
	daemon/codec/* | daemon/crypto/*) prefixes="$low" ;;
	daemon/config/* | daemon/store/*) prefixes="$base daemon/config/ daemon/store/" ;;
	drivers/*) prefixes="$base drivers/" ;;
	eap/*) prefixes="$base eap/" ;;
	daemon/rsn/* | daemon/sae/* | daemon/pae/* | daemon/radius/*) prefixes="$base eap/ $proto drivers/driver.h" ;;
	daemon/station/*) prefixes="$base eap/ $proto daemon/config/ daemon/store/ drivers/driver.h daemon/station/" ;;
	daemon/ap/*) prefixes="$base eap/ $proto daemon/config/ daemon/store/ drivers/driver.h daemon/ap/" ;;
	dbus/*) prefixes="daemon/ drivers/driver.h dbus/" ;;
	daemon/main.c) prefixes="daemon/ drivers/ eap/ dbus/" ;;
	daemon/*) prefixes="daemon/ drivers/driver.h eap/" ;;
	wpactl/*) prefixes="$low dbus/errors.h dbus/error-catalogue.h daemon/version.h wpactl/" ;;
	*) return 0 ;;
	esac
	# Headers of the same directory are always fine.
	[ "$(dirname "$inc")" = "$(dirname "$from")" ] && return 0
	# Protocol and role directories must not include each other upward:
	# a role may include a protocol, a protocol never a role.
	for p in $prefixes; do
		case "$inc" in "$p"*) return 0 ;; esac
	done
	return 1
}

bad=0
checked=0
while IFS= read -r file; do
	while IFS= read -r inc; do
		checked=$((checked + 1))
		# Only paths rooted at the top of the tree are project headers.
		case "$inc" in daemon/* | drivers/* | eap/* | dbus/* | wpactl/*) ;; *) continue ;; esac
		if ! allowed "$file" "$inc"; then
			echo "layer violation: $file includes $inc"
			bad=$((bad + 1))
		fi
	done < <(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$file")
done < <(find daemon drivers eap dbus wpactl -name '*.[ch]' 2>/dev/null | sort)

echo "checked $checked includes, $bad violations"
# Prove the checker can fail: a core file including a role must be refused.
for pair in "daemon/core/loop.c daemon/station/station.h" "daemon/rsn/supplicant.c daemon/ap/ap.h" \
	"daemon/station/station.c daemon/ap/ap.h" "daemon/config/ini.c daemon/station/station.h" \
	"drivers/sim/sim.c daemon/station/station.h" "daemon/wpad.c dbus/errors.h"; do
	# shellcheck disable=SC2086
	if allowed $pair; then
		echo "checker self-test failed: allowed $pair"
		exit 1
	fi
done
[ "$bad" -eq 0 ]
