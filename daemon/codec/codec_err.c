#include "daemon/codec/codec_err.h"

const char *codec_strerror(int err)
{
	switch (err) {
	case CODEC_OK:
		return "ok";
	case CODEC_E_TRUNCATED:
		return "fixed field truncated";
	case CODEC_E_OVERRUN:
		return "length runs past end of buffer";
	case CODEC_E_BAD_LENGTH:
		return "length not allowed for this field";
	case CODEC_E_MALFORMED:
		return "malformed content";
	case CODEC_E_DUPLICATE:
		return "duplicate element";
	case CODEC_E_UNSUPPORTED:
		return "unsupported";
	case CODEC_E_NOSPACE:
		return "output buffer too small";
	case CODEC_E_INVALID_ARG:
		return "invalid argument";
	default:
		return "unknown codec error";
	}
}
