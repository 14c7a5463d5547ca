#!/bin/bash
# The fi.w1.wpa_supplicant1 front adopting an interface wpad.conf does not name (tests/integration/wpas_adopt.py).
exec "$(dirname "$0")/../dbus/run.sh" "$(cd "$(dirname "$0")" && pwd)/wpas_adopt.py"
