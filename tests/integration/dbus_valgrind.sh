#!/bin/bash
# The malformed-call table and the teardown test again, with wpad under
# valgrind (definite and indirect leaks are failures). The sanitizer build
# has ASan and LeakSanitizer instead.
case "${WPAD_BUILD:-}" in
*-san)
	echo "sanitized build: valgrind not applicable"
	exit 0
	;;
esac
export WPAD_WRAPPER="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9"
exec "$(dirname "$0")/../dbus/run.sh" test_malformed.py
