/* Hex strings to bytes for test vectors (spaces allowed between octets).
 * Fails the running Check test on malformed hex or overflow. */
#ifndef WPAD_TESTS_UNIT_TEST_HEX_H
#define WPAD_TESTS_UNIT_TEST_HEX_H

#include <stddef.h>
#include <stdint.h>

size_t unhex(const char *hex, uint8_t *out, size_t max);

#endif
