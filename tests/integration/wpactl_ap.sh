#!/bin/bash
# wpactl end to end as an access point's client (tests/integration/wpactl_ap.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpactl_ap.py"
