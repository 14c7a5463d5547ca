#!/bin/bash
# wpactl monitor end to end (tests/integration/wpactl_monitor.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpactl_monitor.py"
