#!/bin/bash
# wpactl's command line, exit codes, man pages and completion
# (tests/integration/wpactl_cli.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpactl_cli.py"
