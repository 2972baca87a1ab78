/* stand.secrets/1: telling the host which values are secrets.
 *
 * A config field the plugin's schema marks "writeOnly" is a secret already
 * (plugin.h). A secret the plugin learns or makes while it runs (a generated
 * password, a session token, a panel's secret URL path, a one-time setup key)
 * is marked here; from then on the host writes kRedacted ("<redacted>") in
 * its place wherever it writes or prints text: log lines, the HTTP calls it
 * records, run files, reports, stdout. What the plugin returns from its calls
 * reaches the host unchanged (the host needs a subscription URL to load it);
 * it is only hidden when written.
 */
#ifndef STAND_SERVICE_SECRETS_H
#define STAND_SERVICE_SECRETS_H

#include <stddef.h>
#include <stdint.h>

#include "../host.h"

#define STAND_SECRETS_SERVICE_ID "stand.secrets/1"

/* Values shorter than this are not hidden as parts of other text (they would
 * cut words apart); mark a longer value that contains them instead. */
#define STAND_SECRET_MIN_LENGTH 4

typedef struct stand_secrets_service {
    uint32_t struct_size;

    /* Marks `value` (`len` bytes of UTF-8, not necessarily NUL-terminated,
     * only read during the call) as a secret for the rest of the run. [any]
     * Marking the same value again does nothing. Never fails. A value every
     * run writes in the open is not hidden, and the host logs a warning
     * naming it: an IP address (with or without a port), a number of up to
     * five digits, or a common word (localhost, http, https, true, false,
     * null, none). Hiding it would erase it everywhere, where it is no
     * secret; mark the longer value that holds it instead (a URL's path). */
    void(STAND_ABI *mark)(const stand_host *host, const char *value, size_t len);
} stand_secrets_service;

#endif
