#!/bin/bash
# The fi.w1.wpa_supplicant1 front as NetworkManager drives it (tests/integration/wpas_api.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpas_api.py"
