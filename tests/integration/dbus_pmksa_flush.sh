#!/bin/bash
# Station.FlushPMKSA and `wpactl station DEV flush-pmksa` on an SAE network
# (tests/integration/dbus_pmksa_flush.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/dbus_pmksa_flush.py"
