#!/bin/bash
# wpactl end to end as a station's client (tests/integration/wpactl_station.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpactl_station.py"
