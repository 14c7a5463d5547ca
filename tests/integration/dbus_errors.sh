#!/bin/bash
# Every error of the catalogue provoked through the API by the cause it
# names (tests/dbus/test_errors.py).
exec "$(dirname "$0")/../dbus/run.sh" test_errors.py
