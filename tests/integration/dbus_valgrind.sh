#!/bin/bash
# The malformed-call table and the teardown test again, with wpad under
# valgrind (definite and indirect leaks are failures). The sanitizer build
# has ASan and LeakSanitizer instead.
#
# Under the sanitizers valgrind cannot run: a skip (exit 77, counted as
# skipped by tests/run-checks.sh), never a pass.
case "${WPAD_BUILD:-}" in
*-san)
	echo "skip: valgrind cannot run a sanitized build (ASan and LeakSanitizer check it instead)"
	exit 77
	;;
esac
export WPAD_WRAPPER="valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect --error-exitcode=9"
exec "$(dirname "$0")/../dbus/run.sh" test_malformed.py
