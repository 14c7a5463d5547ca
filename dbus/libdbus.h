/* libdbus, loaded when wpad connects to a bus rather than when it starts.
 *
 * libdbus brings libsystemd, libgcrypt, libgpg-error, liblzma, libzstd,
 * liblz4 and libcap with it on Debian: ~1.3 MB resident and ~136 kB of
 * relocated (private) data in every process that links it, used or not.
 * A wpad without a bus (--no-dbus, or an AP box with no system bus) never
 * needs them, so the D-Bus layer calls libdbus through this table, filled
 * by dlopen() on the first use and emptied again when the bus could not
 * be reached (libdbus_unload()). See docs/performance.md (memory,
 * 2026-12-06).
 *
 * Files of the D-Bus layer include this header instead of <dbus/dbus.h>:
 * the macros at the end turn each call `dbus_x(...)` into a call through
 * the table, so call sites read as plain libdbus. */
#ifndef WPAD_DBUS_LIBDBUS_H
#define WPAD_DBUS_LIBDBUS_H

#include <dbus/dbus.h>

#include "daemon/core/error.h"

/* The soname the D-Bus layer loads (libdbus's ABI has been version 3
 * since 2006). */
#define LIBDBUS_SONAME "libdbus-1.so.3"

/* Every libdbus function the D-Bus layer calls, one X(name) each. */
#define LIBDBUS_FUNCTIONS(X)                                                                       \
	X(dbus_bus_add_match)                                                                      \
	X(dbus_bus_get_private)                                                                    \
	X(dbus_bus_get_unique_name)                                                                \
	X(dbus_bus_get_unix_user)                                                                  \
	X(dbus_bus_register)                                                                       \
	X(dbus_bus_release_name)                                                                   \
	X(dbus_bus_request_name)                                                                   \
	X(dbus_connection_add_filter)                                                              \
	X(dbus_connection_close)                                                                   \
	X(dbus_connection_dispatch)                                                                \
	X(dbus_connection_flush)                                                                   \
	X(dbus_connection_get_dispatch_status)                                                     \
	X(dbus_connection_get_is_connected)                                                        \
	X(dbus_connection_open_private)                                                            \
	X(dbus_connection_read_write)                                                              \
	X(dbus_connection_register_fallback)                                                       \
	X(dbus_connection_remove_filter)                                                           \
	X(dbus_connection_send)                                                                    \
	X(dbus_connection_send_with_reply)                                                         \
	X(dbus_connection_set_dispatch_status_function)                                            \
	X(dbus_connection_set_exit_on_disconnect)                                                  \
	X(dbus_connection_set_timeout_functions)                                                   \
	X(dbus_connection_set_wakeup_main_function)                                                \
	X(dbus_connection_set_watch_functions)                                                     \
	X(dbus_connection_unref)                                                                   \
	X(dbus_connection_unregister_object_path)                                                  \
	X(dbus_error_free)                                                                         \
	X(dbus_error_init)                                                                         \
	X(dbus_error_is_set)                                                                       \
	X(dbus_free)                                                                               \
	X(dbus_message_append_args)                                                                \
	X(dbus_message_get_args)                                                                   \
	X(dbus_message_get_error_name)                                                             \
	X(dbus_message_get_interface)                                                              \
	X(dbus_message_get_member)                                                                 \
	X(dbus_message_get_no_reply)                                                               \
	X(dbus_message_get_path)                                                                   \
	X(dbus_message_get_sender)                                                                 \
	X(dbus_message_get_signature)                                                              \
	X(dbus_message_get_type)                                                                   \
	X(dbus_message_has_sender)                                                                 \
	X(dbus_message_is_method_call)                                                             \
	X(dbus_message_is_signal)                                                                  \
	X(dbus_message_iter_abandon_container)                                                     \
	X(dbus_message_iter_append_basic)                                                          \
	X(dbus_message_iter_append_fixed_array)                                                    \
	X(dbus_message_iter_close_container)                                                       \
	X(dbus_message_iter_get_arg_type)                                                          \
	X(dbus_message_iter_get_basic)                                                             \
	X(dbus_message_iter_get_element_type)                                                      \
	X(dbus_message_iter_get_fixed_array)                                                       \
	X(dbus_message_iter_get_signature)                                                         \
	X(dbus_message_iter_init)                                                                  \
	X(dbus_message_iter_init_append)                                                           \
	X(dbus_message_iter_next)                                                                  \
	X(dbus_message_iter_open_container)                                                        \
	X(dbus_message_iter_recurse)                                                               \
	X(dbus_message_new_error)                                                                  \
	X(dbus_message_new_method_call)                                                            \
	X(dbus_message_new_method_return)                                                          \
	X(dbus_message_new_signal)                                                                 \
	X(dbus_message_ref)                                                                        \
	X(dbus_message_set_no_reply)                                                               \
	X(dbus_message_unref)                                                                      \
	X(dbus_pending_call_cancel)                                                                \
	X(dbus_pending_call_set_notify)                                                            \
	X(dbus_pending_call_steal_reply)                                                           \
	X(dbus_pending_call_unref)                                                                 \
	X(dbus_shutdown)                                                                           \
	X(dbus_timeout_get_data)                                                                   \
	X(dbus_timeout_get_enabled)                                                                \
	X(dbus_timeout_get_interval)                                                               \
	X(dbus_timeout_handle)                                                                     \
	X(dbus_timeout_set_data)                                                                   \
	X(dbus_type_is_basic)                                                                      \
	X(dbus_validate_path)                                                                      \
	X(dbus_watch_get_enabled)                                                                  \
	X(dbus_watch_get_flags)                                                                    \
	X(dbus_watch_get_unix_fd)                                                                  \
	X(dbus_watch_handle)                                                                       \

struct libdbus {
#define LIBDBUS_MEMBER(name) __typeof__(&name) p_##name;
	LIBDBUS_FUNCTIONS(LIBDBUS_MEMBER)
#undef LIBDBUS_MEMBER
};

/* Loads libdbus and resolves every function of the table; 0, or a negative
 * errno with err set (libdbus missing or too old). Loading twice is a
 * no-op. */
int libdbus_load(struct wpad_error *err);

/* Unloads libdbus once nothing the D-Bus layer made from it is left (no
 * connection, no message, no error holding its memory): dbus_shutdown()
 * frees libdbus's own globals, then its pages and those of the libraries
 * it brought go back to the system. */
void libdbus_unload(void);

/* The table, loaded on first use; aborts when libdbus cannot be loaded:
 * every path that may run without it calls libdbus_load() first. */
const struct libdbus *libdbus_fns(void);

#define dbus_bus_add_match (libdbus_fns()->p_dbus_bus_add_match)
#define dbus_bus_get_private (libdbus_fns()->p_dbus_bus_get_private)
#define dbus_bus_get_unique_name (libdbus_fns()->p_dbus_bus_get_unique_name)
#define dbus_bus_get_unix_user (libdbus_fns()->p_dbus_bus_get_unix_user)
#define dbus_bus_register (libdbus_fns()->p_dbus_bus_register)
#define dbus_bus_release_name (libdbus_fns()->p_dbus_bus_release_name)
#define dbus_bus_request_name (libdbus_fns()->p_dbus_bus_request_name)
#define dbus_connection_add_filter (libdbus_fns()->p_dbus_connection_add_filter)
#define dbus_connection_close (libdbus_fns()->p_dbus_connection_close)
#define dbus_connection_dispatch (libdbus_fns()->p_dbus_connection_dispatch)
#define dbus_connection_flush (libdbus_fns()->p_dbus_connection_flush)
#define dbus_connection_get_dispatch_status (libdbus_fns()->p_dbus_connection_get_dispatch_status)
#define dbus_connection_get_is_connected (libdbus_fns()->p_dbus_connection_get_is_connected)
#define dbus_connection_open_private (libdbus_fns()->p_dbus_connection_open_private)
#define dbus_connection_read_write (libdbus_fns()->p_dbus_connection_read_write)
#define dbus_connection_register_fallback (libdbus_fns()->p_dbus_connection_register_fallback)
#define dbus_connection_remove_filter (libdbus_fns()->p_dbus_connection_remove_filter)
#define dbus_connection_send (libdbus_fns()->p_dbus_connection_send)
#define dbus_connection_send_with_reply (libdbus_fns()->p_dbus_connection_send_with_reply)
#define dbus_connection_set_dispatch_status_function (libdbus_fns()->p_dbus_connection_set_dispatch_status_function)
#define dbus_connection_set_exit_on_disconnect (libdbus_fns()->p_dbus_connection_set_exit_on_disconnect)
#define dbus_connection_set_timeout_functions (libdbus_fns()->p_dbus_connection_set_timeout_functions)
#define dbus_connection_set_wakeup_main_function (libdbus_fns()->p_dbus_connection_set_wakeup_main_function)
#define dbus_connection_set_watch_functions (libdbus_fns()->p_dbus_connection_set_watch_functions)
#define dbus_connection_unref (libdbus_fns()->p_dbus_connection_unref)
#define dbus_connection_unregister_object_path (libdbus_fns()->p_dbus_connection_unregister_object_path)
#define dbus_error_free (libdbus_fns()->p_dbus_error_free)
#define dbus_error_init (libdbus_fns()->p_dbus_error_init)
#define dbus_error_is_set (libdbus_fns()->p_dbus_error_is_set)
#define dbus_free (libdbus_fns()->p_dbus_free)
#define dbus_message_append_args (libdbus_fns()->p_dbus_message_append_args)
#define dbus_message_get_args (libdbus_fns()->p_dbus_message_get_args)
#define dbus_message_get_error_name (libdbus_fns()->p_dbus_message_get_error_name)
#define dbus_message_get_interface (libdbus_fns()->p_dbus_message_get_interface)
#define dbus_message_get_member (libdbus_fns()->p_dbus_message_get_member)
#define dbus_message_get_no_reply (libdbus_fns()->p_dbus_message_get_no_reply)
#define dbus_message_get_path (libdbus_fns()->p_dbus_message_get_path)
#define dbus_message_get_sender (libdbus_fns()->p_dbus_message_get_sender)
#define dbus_message_get_signature (libdbus_fns()->p_dbus_message_get_signature)
#define dbus_message_get_type (libdbus_fns()->p_dbus_message_get_type)
#define dbus_message_has_sender (libdbus_fns()->p_dbus_message_has_sender)
#define dbus_message_is_method_call (libdbus_fns()->p_dbus_message_is_method_call)
#define dbus_message_is_signal (libdbus_fns()->p_dbus_message_is_signal)
#define dbus_message_iter_abandon_container (libdbus_fns()->p_dbus_message_iter_abandon_container)
#define dbus_message_iter_append_basic (libdbus_fns()->p_dbus_message_iter_append_basic)
#define dbus_message_iter_append_fixed_array (libdbus_fns()->p_dbus_message_iter_append_fixed_array)
#define dbus_message_iter_close_container (libdbus_fns()->p_dbus_message_iter_close_container)
#define dbus_message_iter_get_arg_type (libdbus_fns()->p_dbus_message_iter_get_arg_type)
#define dbus_message_iter_get_basic (libdbus_fns()->p_dbus_message_iter_get_basic)
#define dbus_message_iter_get_element_type (libdbus_fns()->p_dbus_message_iter_get_element_type)
#define dbus_message_iter_get_fixed_array (libdbus_fns()->p_dbus_message_iter_get_fixed_array)
#define dbus_message_iter_get_signature (libdbus_fns()->p_dbus_message_iter_get_signature)
#define dbus_message_iter_init (libdbus_fns()->p_dbus_message_iter_init)
#define dbus_message_iter_init_append (libdbus_fns()->p_dbus_message_iter_init_append)
#define dbus_message_iter_next (libdbus_fns()->p_dbus_message_iter_next)
#define dbus_message_iter_open_container (libdbus_fns()->p_dbus_message_iter_open_container)
#define dbus_message_iter_recurse (libdbus_fns()->p_dbus_message_iter_recurse)
#define dbus_message_new_error (libdbus_fns()->p_dbus_message_new_error)
#define dbus_message_new_method_call (libdbus_fns()->p_dbus_message_new_method_call)
#define dbus_message_new_method_return (libdbus_fns()->p_dbus_message_new_method_return)
#define dbus_message_new_signal (libdbus_fns()->p_dbus_message_new_signal)
#define dbus_message_ref (libdbus_fns()->p_dbus_message_ref)
#define dbus_message_set_no_reply (libdbus_fns()->p_dbus_message_set_no_reply)
#define dbus_message_unref (libdbus_fns()->p_dbus_message_unref)
#define dbus_pending_call_cancel (libdbus_fns()->p_dbus_pending_call_cancel)
#define dbus_pending_call_set_notify (libdbus_fns()->p_dbus_pending_call_set_notify)
#define dbus_pending_call_steal_reply (libdbus_fns()->p_dbus_pending_call_steal_reply)
#define dbus_pending_call_unref (libdbus_fns()->p_dbus_pending_call_unref)
#define dbus_shutdown (libdbus_fns()->p_dbus_shutdown)
#define dbus_timeout_get_data (libdbus_fns()->p_dbus_timeout_get_data)
#define dbus_timeout_get_enabled (libdbus_fns()->p_dbus_timeout_get_enabled)
#define dbus_timeout_get_interval (libdbus_fns()->p_dbus_timeout_get_interval)
#define dbus_timeout_handle (libdbus_fns()->p_dbus_timeout_handle)
#define dbus_timeout_set_data (libdbus_fns()->p_dbus_timeout_set_data)
#define dbus_type_is_basic (libdbus_fns()->p_dbus_type_is_basic)
#define dbus_validate_path (libdbus_fns()->p_dbus_validate_path)
#define dbus_watch_get_enabled (libdbus_fns()->p_dbus_watch_get_enabled)
#define dbus_watch_get_flags (libdbus_fns()->p_dbus_watch_get_flags)
#define dbus_watch_get_unix_fd (libdbus_fns()->p_dbus_watch_get_unix_fd)
#define dbus_watch_handle (libdbus_fns()->p_dbus_watch_handle)

#endif
