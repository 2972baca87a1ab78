/* stand SDK: the host table a plugin receives in create().
 *
 * Frozen small core: identity, log and get_service. Everything else is a
 * service looked up by versioned id ("stand.http/1", see the headers in service/).
 *
 * Thread tags used across the SDK:
 *   [control]  the host's control thread for this instance: calls into one
 *              instance never overlap, and come from one thread at a time.
 *   [any]      any thread, concurrently; the callee must be thread-safe.
 *   [same]     the thread of the call that handed the object over. */
#ifndef STAND_HOST_H
#define STAND_HOST_H

#include <stdint.h>

#include "macros.h"
#include "result.h"
#include "version.h"

enum {
    STAND_LOG_DEBUG = 10,
    STAND_LOG_INFO = 20,
    STAND_LOG_WARNING = 30,
    STAND_LOG_ERROR = 40
};

typedef struct stand_host {
    uint32_t struct_size;
    stand_abi_version abi;   /* the ABI the host implements; abi.minor may exceed the plugin's */
    const char *name;        /* "stand"; UTF-8, host-owned, valid while the host struct is */
    const char *version;     /* host release version, e.g. "0.1.0"; host-owned */
    void *host_data;         /* opaque to the plugin */

    /* Writes one log line, prefixed by the host with the plugin id. [any]
     * `message` is UTF-8, only read during the call. Unknown levels are
     * logged as the nearest lower known level. Never fails. */
    void(STAND_ABI *log)(const struct stand_host *host, int32_t level, const char *message);

    /* Looks up a host service by versioned id, e.g. STAND_HTTP_SERVICE_ID. [any]
     * Returns a pointer to a host-owned service table valid for as long as
     * this stand_host, or NULL when the host does not offer that id/version.
     * The table starts with uint32_t struct_size; check members with STAND_HAS. */
    const void *(STAND_ABI *get_service)(const struct stand_host *host, const char *service_id);
} stand_host;

#endif
