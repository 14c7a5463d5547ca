/* libssl, loaded when wpad first builds a TLS context (EAP-TLS, PEAP,
 * TTLS) rather than when it starts: an access point or a PSK/SAE station
 * never uses it, and a library linked at start costs every process its
 * relocated data (~56 kB private) and the pages the loader touches. See
 * daemon/core/lazy_lib.h and docs/performance.md (memory, 2026-12-06).
 * libcrypto stays linked: the whole daemon uses it.
 *
 * Files calling libssl include this header after <openssl/ssl.h>: the
 * macros at the end turn each call `SSL_x(...)` (and libssl's own macros
 * over SSL_ctrl/SSL_CTX_ctrl) into a call through the table. */
#ifndef WPAD_EAP_LIBSSL_H
#define WPAD_EAP_LIBSSL_H

#include <openssl/ssl.h>

/* The soname OpenSSL 3 gives libssl. */
#define LIBSSL_SONAME "libssl.so.3"

/* Every libssl function wpad calls, one X(name) each. */
#define LIBSSL_FUNCTIONS(X)                                                                        \
	X(SSL_CTX_check_private_key)                                                               \
	X(SSL_CTX_ctrl)                                                                            \
	X(SSL_CTX_free)                                                                            \
	X(SSL_CTX_get_cert_store)                                                                  \
	X(SSL_CTX_load_verify_locations)                                                           \
	X(SSL_CTX_new)                                                                             \
	X(SSL_CTX_sess_set_new_cb)                                                                 \
	X(SSL_CTX_set_default_verify_paths)                                                        \
	X(SSL_CTX_set_info_callback)                                                               \
	X(SSL_CTX_set_verify)                                                                      \
	X(SSL_CTX_up_ref)                                                                          \
	X(SSL_CTX_use_PrivateKey)                                                                  \
	X(SSL_CTX_use_certificate)                                                                 \
	X(SSL_SESSION_free)                                                                        \
	X(SSL_SESSION_is_resumable)                                                                \
	X(SSL_alert_desc_string_long)                                                              \
	X(SSL_ctrl)                                                                                \
	X(SSL_do_handshake)                                                                        \
	X(SSL_export_keying_material)                                                              \
	X(SSL_free)                                                                                \
	X(SSL_get0_peer_certificate)                                                               \
	X(SSL_get1_session)                                                                        \
	X(SSL_get_client_random)                                                                   \
	X(SSL_get_error)                                                                           \
	X(SSL_get_ex_data)                                                                         \
	X(SSL_get_ex_data_X509_STORE_CTX_idx)                                                      \
	X(SSL_get_server_random)                                                                   \
	X(SSL_get_session)                                                                         \
	X(SSL_get_version)                                                                         \
	X(SSL_new)                                                                                 \
	X(SSL_read)                                                                                \
	X(SSL_session_reused)                                                                      \
	X(SSL_set_bio)                                                                             \
	X(SSL_set_connect_state)                                                                   \
	X(SSL_set_ex_data)                                                                         \
	X(SSL_set_session)                                                                         \
	X(SSL_set_shutdown)                                                                        \
	X(SSL_version)                                                                             \
	X(SSL_write)                                                                               \
	X(TLS_client_method)                                                                       \

struct libssl {
#define LIBSSL_MEMBER(name) __typeof__(&name) p_##name;
	LIBSSL_FUNCTIONS(LIBSSL_MEMBER)
#undef LIBSSL_MEMBER
};

/* Loads libssl and resolves the table; 0, or a negative errno with what
 * went wrong in why. Loading twice is a no-op. libssl stays loaded (it
 * registers its clean-up with libcrypto's). */
int libssl_load(char *why, size_t why_len);

/* The table, loaded on first use; aborts when libssl cannot be loaded:
 * tls_conn_new(), the way in to every other call, loads it first. */
const struct libssl *libssl_fns(void);

#define SSL_CTX_check_private_key (libssl_fns()->p_SSL_CTX_check_private_key)
#define SSL_CTX_ctrl (libssl_fns()->p_SSL_CTX_ctrl)
#define SSL_CTX_free (libssl_fns()->p_SSL_CTX_free)
#define SSL_CTX_get_cert_store (libssl_fns()->p_SSL_CTX_get_cert_store)
#define SSL_CTX_load_verify_locations (libssl_fns()->p_SSL_CTX_load_verify_locations)
#define SSL_CTX_new (libssl_fns()->p_SSL_CTX_new)
#define SSL_CTX_sess_set_new_cb (libssl_fns()->p_SSL_CTX_sess_set_new_cb)
#define SSL_CTX_set_default_verify_paths (libssl_fns()->p_SSL_CTX_set_default_verify_paths)
#define SSL_CTX_set_info_callback (libssl_fns()->p_SSL_CTX_set_info_callback)
#define SSL_CTX_set_verify (libssl_fns()->p_SSL_CTX_set_verify)
#define SSL_CTX_up_ref (libssl_fns()->p_SSL_CTX_up_ref)
#define SSL_CTX_use_PrivateKey (libssl_fns()->p_SSL_CTX_use_PrivateKey)
#define SSL_CTX_use_certificate (libssl_fns()->p_SSL_CTX_use_certificate)
#define SSL_SESSION_free (libssl_fns()->p_SSL_SESSION_free)
#define SSL_SESSION_is_resumable (libssl_fns()->p_SSL_SESSION_is_resumable)
#define SSL_alert_desc_string_long (libssl_fns()->p_SSL_alert_desc_string_long)
#define SSL_ctrl (libssl_fns()->p_SSL_ctrl)
#define SSL_do_handshake (libssl_fns()->p_SSL_do_handshake)
#define SSL_export_keying_material (libssl_fns()->p_SSL_export_keying_material)
#define SSL_free (libssl_fns()->p_SSL_free)
#define SSL_get0_peer_certificate (libssl_fns()->p_SSL_get0_peer_certificate)
#define SSL_get1_session (libssl_fns()->p_SSL_get1_session)
#define SSL_get_client_random (libssl_fns()->p_SSL_get_client_random)
#define SSL_get_error (libssl_fns()->p_SSL_get_error)
#define SSL_get_ex_data (libssl_fns()->p_SSL_get_ex_data)
#define SSL_get_ex_data_X509_STORE_CTX_idx (libssl_fns()->p_SSL_get_ex_data_X509_STORE_CTX_idx)
#define SSL_get_server_random (libssl_fns()->p_SSL_get_server_random)
#define SSL_get_session (libssl_fns()->p_SSL_get_session)
#define SSL_get_version (libssl_fns()->p_SSL_get_version)
#define SSL_new (libssl_fns()->p_SSL_new)
#define SSL_read (libssl_fns()->p_SSL_read)
#define SSL_session_reused (libssl_fns()->p_SSL_session_reused)
#define SSL_set_bio (libssl_fns()->p_SSL_set_bio)
#define SSL_set_connect_state (libssl_fns()->p_SSL_set_connect_state)
#define SSL_set_ex_data (libssl_fns()->p_SSL_set_ex_data)
#define SSL_set_session (libssl_fns()->p_SSL_set_session)
#define SSL_set_shutdown (libssl_fns()->p_SSL_set_shutdown)
#define SSL_version (libssl_fns()->p_SSL_version)
#define SSL_write (libssl_fns()->p_SSL_write)
#define TLS_client_method (libssl_fns()->p_TLS_client_method)

#endif
