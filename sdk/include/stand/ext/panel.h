/* stand.panel/1: the admin API of a VPN panel.
 *
 * Every call is [control], uses stand.http/1 for HTTP (so the host times and
 * counts each admin call and waits out 429s), and writes an error naming the
 * panel, the operation, the HTTP status and a short body excerpt into `err`
 * when the panel answers something other than what it documents. */
#ifndef STAND_EXT_PANEL_H
#define STAND_EXT_PANEL_H

#include <stdint.h>

#include "../plugin.h"

#define STAND_PANEL_ID "stand.panel/1"

typedef struct stand_panel {
    uint32_t struct_size;

    /* One-time setup after the first start: owner/admin account, login,
     * API token, inbound/profile/group/host, whatever creating users needs.
     * Idempotent across restarts of the same data dir (logs in again).
     * Returns STAND_OK, STAND_E_BAD_RESPONSE, STAND_E_UNREACHABLE, STAND_E_TIMEOUT. */
    stand_result(STAND_ABI *bootstrap)(stand_instance *self, stand_error *err);

    /* Creates one user named `name` (UTF-8, only read during the call) and
     * writes it as JSON to `out`:
     *   {"name":"user1","id":"42",
     *    "subscription":{"method":"GET","url":"http://127.0.0.1:2096/sub/abc",
     *                    "headers":{"User-Agent":"v2rayN/7.5.0"}},
     *    "tunnel_auth":"..."}            (absent when the panel does not expose it)
     * The URL is absolute. Returns STAND_OK, STAND_E_BAD_STATE (no bootstrap),
     * STAND_E_BAD_RESPONSE (a duplicate name included), STAND_E_UNREACHABLE.
     * User names are unique per panel: creating a user with a name that
     * exists fails with STAND_E_BAD_RESPONSE and a message saying the name is
     * taken (the panel's 409 or its own refusal). Where the panel itself
     * accepts duplicate names, the adapter looks the name up first and
     * refuses the duplicate itself, with the same result, so this holds for
     * every panel (compat check panel.duplicate-name-error). */
    stand_result(STAND_ABI *create_user)(stand_instance *self, const char *name,
                                         const stand_sink *out, stand_error *err);

    /* Deletes the user whose "id" create_user returned.
     * Returns STAND_OK, STAND_E_NOT_FOUND, STAND_E_BAD_RESPONSE. */
    stand_result(STAND_ABI *delete_user)(stand_instance *self, const char *user_id,
                                         stand_error *err);

    /* One cheap authenticated admin call (list one user), used to measure
     * admin latency under load and to check the session after a restart
     * (re-logging in when the session was lost). Returns STAND_OK or an error. */
    stand_result(STAND_ABI *admin_call)(stand_instance *self, stand_error *err);

    /* Describes the subscription fetch of user `user_id` as the same
     * "subscription" JSON object create_user returns (method, absolute url,
     * headers) to `out`; the host's load generator fires it, never the plugin.
     * Returns STAND_OK, STAND_E_NOT_FOUND. */
    stand_result(STAND_ABI *subscription_request)(stand_instance *self, const char *user_id,
                                                  const stand_sink *out, stand_error *err);

    /* --- ABI 1.3: revocation and traffic accounting. A host reads these
     * with STAND_HAS (a 1.2 plugin's table ends before them, and a plugin
     * may leave one NULL: the panel has no such switch); a call the plugin
     * does not have answers STAND_E_UNSUPPORTED naming it. */

    /* Turns user `user_id` off (`enabled` 0) or on again (1) with the panel's
     * own switch (its enable flag or "disabled" status); the user and its
     * links stay. Returns when the panel accepted the change, not when its
     * core applied it: that delay is what stand measures.
     * Returns STAND_OK, STAND_E_NOT_FOUND, STAND_E_BAD_RESPONSE. */
    stand_result(STAND_ABI *set_user_enabled)(stand_instance *self, const char *user_id, int enabled,
                                              stand_error *err);

    /* Sets user `user_id`'s traffic quota to `quota_bytes` (as the panel
     * counts traffic; 0 removes the quota). A quota under what the user has
     * used puts it over quota, which the panel enforces its own way and on
     * its own schedule. Returns STAND_OK, STAND_E_NOT_FOUND, STAND_E_BAD_RESPONSE. */
    stand_result(STAND_ABI *set_user_quota)(stand_instance *self, const char *user_id, uint64_t quota_bytes,
                                            stand_error *err);

    /* Writes the panel's own count of user `user_id`'s traffic as JSON:
     *   {"total_bytes":1234,"up_bytes":200,"down_bytes":1034}
     * up_bytes/down_bytes only where the panel keeps the directions apart
     * (up: client to server). The count is what the admin API says now; a
     * panel that collects it from its core periodically lags behind.
     * Returns STAND_OK, STAND_E_NOT_FOUND, STAND_E_BAD_RESPONSE. */
    stand_result(STAND_ABI *user_traffic)(stand_instance *self, const char *user_id, const stand_sink *out,
                                          stand_error *err);

    /* --- ABI 1.4: the admin's own pages as load. Read with STAND_HAS like
     * the 1.3 members; NULL or absent: the call answers STAND_E_UNSUPPORTED.
     *
     * Describes the requests the panel's own admin web UI repeats while its
     * pages are open (server status, statistics, the first page of the user
     * list), each with the period the UI polls it at, to `out`:
     *   {"requests":[{"page":"overview","name":"server_status","every_s":2,
     *                 "method":"GET","url":"http://127.0.0.1:2053/panel/api/server/status",
     *                 "headers":{"Cookie":"3x-ui=..."},"body":""}, ...]}
     * Like subscription_request, the host's load generator fires them, never
     * the plugin. `name` is unique, [a-z0-9_]; `url` absolute; `every_s` > 0
     * is the UI's own period (from the panel's source), not a load level;
     * `headers` carry a signed-in session of its own (as a browser's login
     * gets one), which the host treats as a secret; `body` may be absent.
     * Returns STAND_OK, STAND_E_BAD_STATE (no bootstrap), STAND_E_BAD_RESPONSE
     * (signing in failed). */
    stand_result(STAND_ABI *dashboard_requests)(stand_instance *self, const stand_sink *out, stand_error *err);
} stand_panel;

#endif
