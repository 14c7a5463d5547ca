/* File names of known networks: SSID + security -> "<name>.<ext>".
 *
 * The name is the SSID itself when that is plain printable ASCII that is
 * safe in a file name: 1..32 bytes of 0x20..0x7e, none of / \ : * ? " < > |,
 * not starting with '.', '=' or '-', not starting or ending with a space.
 * Otherwise it is '=' followed by the SSID in lower-case hex. Each SSID has
 * exactly one name: decoding refuses a hex name for an SSID that would be
 * written plain, so two files can never claim the same network.
 * Extensions: .open, .psk, .8021x.
 */
#ifndef WPAD_STORE_SSID_NAME_H
#define WPAD_STORE_SSID_NAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define KNOWN_SSID_MAX 32
/* '=' + 64 hex + ".8021x" + NUL */
#define KNOWN_NAME_MAX (1 + 2 * KNOWN_SSID_MAX + 6 + 1)

enum known_security {
	KNOWN_SEC_OPEN,
	KNOWN_SEC_PSK,
	KNOWN_SEC_8021X,
};

/* ".open", ".psk" or ".8021x". */
const char *known_security_ext(enum known_security sec);
/* "open", "psk" or "8021x". */
const char *known_security_name(enum known_security sec);

/* True when the SSID is written as itself. */
bool known_ssid_is_plain(const uint8_t *ssid, size_t len);

/* Writes the file name into out (KNOWN_NAME_MAX bytes). Returns 0, or
 * -EINVAL for an SSID not 1..32 bytes. */
int known_name_encode(const uint8_t *ssid, size_t len, enum known_security sec,
		      char out[KNOWN_NAME_MAX]);
/* True when the name ends in one of the network extensions. */
bool known_name_has_ext(const char *name);
/* Parses a file name back. Returns 0, or -EINVAL when it is not the
 * canonical name of any network (unknown extension, bad hex, plain name
 * that should have been hex or the reverse). */
int known_name_decode(const char *name, uint8_t ssid[KNOWN_SSID_MAX], size_t *len,
		      enum known_security *sec);

#endif
