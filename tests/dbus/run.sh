#!/bin/bash
# Runs one D-Bus test script with the system's python3, which has
# python3-dbus and python3-gi (scripts/install-deps.sh test).
set -u
py=/usr/bin/python3
if ! "$py" -c 'import dbus, dbus.mainloop.glib, gi' 2>/dev/null; then
	echo "python3-dbus and python3-gi are missing: run scripts/install-deps.sh test"
	exit 1
fi
for tool in dbus-daemon busctl gdbus; do
	command -v "$tool" >/dev/null || { echo "$tool is missing: run scripts/install-deps.sh test"; exit 1; }
done
export PYTHONDONTWRITEBYTECODE=1 # no __pycache__ in the source tree
cd "$(dirname "$0")" && exec "$py" "$@"
