#!/bin/bash
# The policy file and the daemon's own check: unprivileged users read,
# root and netdev configure (tests/dbus/test_permissions.py).
exec "$(dirname "$0")/../dbus/run.sh" test_permissions.py
