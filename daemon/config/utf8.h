/* UTF-8 validation for configuration text. */
#ifndef WPAD_CONFIG_UTF8_H
#define WPAD_CONFIG_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* True when s[0..len) is well-formed UTF-8: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no sequence cut short. On false,
 * *bad_off (if not NULL) is the offset of the first offending byte. */
bool utf8_valid(const uint8_t *s, size_t len, size_t *bad_off);

#endif
