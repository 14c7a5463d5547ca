#!/bin/bash
# wpactl tells a dead wpad (exit 9) from a stuck one (exit 7)
# (tests/integration/wpactl_daemon_gone.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpactl_daemon_gone.py"
