/* Layout goldens of ABI 1.0 on LP64 (x86_64, aarch64): the size and member
 * offsets of every public struct. An accidental ABI change breaks the build
 * here. An intended one (appending a member) updates these numbers together
 * with STAND_ABI_MINOR; see CONTRIBUTING.md, "ABI change checklist". */
#ifndef STAND_TEST_LAYOUT_GOLDENS_H
#define STAND_TEST_LAYOUT_GOLDENS_H

#include <stand/stand.h>

#ifdef __cplusplus
#define STAND_GOLDEN_ASSERT static_assert
#else
#define STAND_GOLDEN_ASSERT _Static_assert
#endif

#define SIZE(type, n) STAND_GOLDEN_ASSERT(sizeof(type) == (n), "sizeof(" #type ") changed: ABI break")
#define AT(type, member, n) \
    STAND_GOLDEN_ASSERT(offsetof(type, member) == (n), "offsetof(" #type ", " #member ") changed: ABI break")

STAND_GOLDEN_ASSERT(STAND_ABI_MAJOR == 1 && STAND_ABI_MINOR == 4, "update the goldens with the ABI version");
STAND_GOLDEN_ASSERT(sizeof(void *) == 8, "the goldens are for LP64 targets");

SIZE(stand_abi_version, 4);
AT(stand_abi_version, major, 0); AT(stand_abi_version, minor, 2);

SIZE(stand_error, 16);
AT(stand_error, struct_size, 0); AT(stand_error, capacity, 4); AT(stand_error, message, 8);

SIZE(stand_sink, 24);
AT(stand_sink, struct_size, 0); AT(stand_sink, context, 8); AT(stand_sink, append, 16);

SIZE(stand_host, 48);
AT(stand_host, struct_size, 0); AT(stand_host, abi, 4); AT(stand_host, name, 8); AT(stand_host, version, 16);
AT(stand_host, host_data, 24); AT(stand_host, log, 32); AT(stand_host, get_service, 40);

SIZE(stand_plugin_descriptor, 64);
AT(stand_plugin_descriptor, struct_size, 0); AT(stand_plugin_descriptor, id, 8);
AT(stand_plugin_descriptor, name, 16); AT(stand_plugin_descriptor, version, 24);
AT(stand_plugin_descriptor, description, 32); AT(stand_plugin_descriptor, interfaces, 40);
AT(stand_plugin_descriptor, config_schema_json, 48); AT(stand_plugin_descriptor, min_host_abi_minor, 56);

SIZE(stand_plugin_entry, 40);
AT(stand_plugin_entry, struct_size, 0); AT(stand_plugin_entry, abi, 4); AT(stand_plugin_entry, descriptor, 8);
AT(stand_plugin_entry, create, 16); AT(stand_plugin_entry, destroy, 24); AT(stand_plugin_entry, get_interface, 32);

SIZE(stand_clock_service, 32);
AT(stand_clock_service, monotonic_ns, 8); AT(stand_clock_service, wall_ns, 16); AT(stand_clock_service, sleep_ns, 24);

SIZE(stand_files_service, 24);
AT(stand_files_service, run_dir, 8); AT(stand_files_service, data_dir, 16);

SIZE(stand_progress_service, 24);
AT(stand_progress_service, report, 8); AT(stand_progress_service, cancelled, 16);

SIZE(stand_secrets_service, 16);
AT(stand_secrets_service, mark, 8);

SIZE(stand_http_service, 32);
AT(stand_http_service, session_open, 8); AT(stand_http_service, session_close, 16);
AT(stand_http_service, request, 24);

SIZE(stand_process_status, 24);
AT(stand_process_status, state, 4); AT(stand_process_status, exit_code, 8); AT(stand_process_status, signal, 12);
AT(stand_process_status, pid, 16);

SIZE(stand_process_service, 48);
AT(stand_process_service, spawn, 8); AT(stand_process_service, signal, 16); AT(stand_process_service, wait, 24);
AT(stand_process_service, release, 32); AT(stand_process_service, output_path, 40);

SIZE(stand_lifecycle, 64);
AT(stand_lifecycle, install, 8); AT(stand_lifecycle, start, 16); AT(stand_lifecycle, stop, 24);
AT(stand_lifecycle, restart, 32); AT(stand_lifecycle, wipe, 40); AT(stand_lifecycle, readiness, 48);
AT(stand_lifecycle, facts, 56);

SIZE(stand_panel, 80);
AT(stand_panel, bootstrap, 8); AT(stand_panel, create_user, 16); AT(stand_panel, delete_user, 24);
AT(stand_panel, admin_call, 32); AT(stand_panel, subscription_request, 40);
AT(stand_panel, set_user_enabled, 48); AT(stand_panel, set_user_quota, 56); AT(stand_panel, user_traffic, 64);
AT(stand_panel, dashboard_requests, 72);

SIZE(stand_proxy, 32);
AT(stand_proxy, configure, 8); AT(stand_proxy, endpoint, 16); AT(stand_proxy, effective_defaults, 24);

SIZE(stand_probe, 40);
AT(stand_probe, list_jobs, 8); AT(stand_probe, prepare, 16); AT(stand_probe, run, 24); AT(stand_probe, cleanup, 32);

#undef SIZE
#undef AT
#endif
