#!/bin/bash
# Malformed calls, floods and calls during shutdown never crash wpad
# (tests/dbus/test_malformed.py).
exec "$(dirname "$0")/../dbus/run.sh" test_malformed.py
