#!/bin/bash
# Runs a command line without its -d arguments: the D-Bus tests' harness
# starts wpad with -d; profiles (bench/dbus-reconnect.py) want the daemon
# at its default log level. Use as (the start of) WPAD_WRAPPER.
args=()
for a in "$@"; do
	[ "$a" = -d ] || args+=("$a")
done
exec "${args[@]}"
