/* Parsers of single configuration values, shared by every reader.
 * All are strict: no surrounding spaces, no signs, no "yes"/"on" aliases.
 * Each returns 0 or a negative enum cfg_err and writes *out only on success.
 */
#ifndef WPAD_CONFIG_VALUE_H
#define WPAD_CONFIG_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CFG_MAC_LEN 6
#define CFG_MAC_STR_LEN 17 /* "aa:bb:cc:dd:ee:ff" without the NUL */

/* "true" or "false". CFG_E_BAD_VALUE otherwise. */
int cfg_parse_bool(const char *s, bool *out);

/* Decimal digits only, in [min, max]. CFG_E_BAD_VALUE when not a number,
 * CFG_E_OUT_OF_RANGE when outside (including overflow). */
int cfg_parse_uint(const char *s, uint32_t min, uint32_t max, uint32_t *out);

/* Six colon-separated pairs of hex digits, either case. CFG_E_BAD_MAC. */
int cfg_parse_mac(const char *s, uint8_t mac[CFG_MAC_LEN]);

/* Exactly 2 * len hex digits into len bytes. CFG_E_BAD_VALUE. */
int cfg_parse_hex(const char *s, uint8_t *out, size_t len);

/* Lower-case hex of len bytes into out, which holds 2 * len + 1 chars. */
void cfg_hex_encode(const uint8_t *in, size_t len, char *out);

/* A WPA passphrase: 8..63 characters, each printable ASCII (32..126). */
bool cfg_passphrase_valid(const char *s);

/* An ISO 3166-1 alpha-2 country code in upper case, or "00" (world). */
bool cfg_country_valid(const char *s);

#endif
