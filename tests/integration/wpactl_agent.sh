#!/bin/bash
# wpactl's agent on a pseudo-terminal (tests/integration/wpactl_agent.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpactl_agent.py"
