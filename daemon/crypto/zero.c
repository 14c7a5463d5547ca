/* Secret wiping on its own, without OpenSSL: wpactl and the medium wipe
 * buffers too, and linking this alone keeps libcrypto (and its start-up
 * cost) out of programs that need no cryptography. */
#include "daemon/crypto/secure.h"

#include <string.h>

void crypto_zero(void *p, size_t len)
{
	if (p && len)
		explicit_bzero(p, len); /* glibc: a store the compiler keeps */
}
