/* Error codes shared by every parser and builder in daemon/codec.
 *
 * Each failure kind has its own code so that tests (and logs) can tell a
 * frame that was cut short from one whose content is wrong.
 */
#ifndef WPAD_CODEC_ERR_H
#define WPAD_CODEC_ERR_H

enum codec_err {
	CODEC_OK = 0,
	CODEC_E_TRUNCATED = -1,   /* a fixed field is cut short */
	CODEC_E_OVERRUN = -2,     /* an element or length/count runs past the buffer */
	CODEC_E_BAD_LENGTH = -3,  /* a length value the element does not allow */
	CODEC_E_MALFORMED = -4,   /* content invalid: bad version, reserved value... */
	CODEC_E_DUPLICATE = -5,   /* a singleton element or KDE appears twice */
	CODEC_E_UNSUPPORTED = -6, /* valid but not something we decode */
	CODEC_E_NOSPACE = -7,     /* builder output buffer too small */
	CODEC_E_INVALID_ARG = -8, /* caller passed inconsistent input */
};

const char *codec_strerror(int err);

#endif
