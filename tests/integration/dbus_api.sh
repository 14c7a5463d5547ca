#!/bin/bash
# The D-Bus API end to end over a private bus (tests/dbus/test_api.py):
# objects, properties and their signals, scan, connect through an agent,
# known networks, the access point and its stations.
exec "$(dirname "$0")/../dbus/run.sh" test_api.py
