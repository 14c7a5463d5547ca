#!/bin/bash
# The running daemon against the contract: dbus/org.wpad1.xml, the
# documentation docs/dbus-api.md, the policy file and the systemd unit
# (tests/dbus/test_introspect.py).
exec "$(dirname "$0")/../dbus/run.sh" test_introspect.py
