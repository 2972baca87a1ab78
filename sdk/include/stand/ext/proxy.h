/* stand.proxy/1: a reverse proxy configured from common knobs.
 *
 * Every proxy plugin writes its own config from the same knobs, so a
 * comparison differs only where the knobs say. Calls are [control]. */
#ifndef STAND_EXT_PROXY_H
#define STAND_EXT_PROXY_H

#include <stdint.h>

#include "../plugin.h"

#define STAND_PROXY_ID "stand.proxy/1"

typedef struct stand_proxy {
    uint32_t struct_size;

    /* Applies knobs (JSON, only read during the call), before start() or
     * between stop() and start(); each call changes only the knobs it names:
     *   {"listen":{"host":"127.0.0.1","port":8443,"tls":true},
     *    "upstreams":[{"host":"127.0.0.1","port":9000}],
     *    "upstream_keepalive":true, "tls_key":{"cert_file":"...","key_file":"..."},
     *    "websocket":false, "workers":1, "max_connections":4096}
     * "upstream_keepalive" (the backend connection pool) and
     * "max_connections" may be null: back to the proxy's own default, which
     * effective_defaults() must then state. No "upstreams": the proxy answers
     * 200 by itself (origin mode). The files of "tls_key" are PEM and stay
     * readable for as long as the instance lives.
     * Unknown knobs: STAND_E_INVALID_ARGUMENT naming the knob. A knob the
     * proxy cannot honour: STAND_E_UNSUPPORTED naming it. A config the
     * proxy's own checker refuses (nginx -t, haproxy -c, ...):
     * STAND_E_INVALID_ARGUMENT quoting it, with the previous knobs kept.
     * Returns STAND_OK. */
    stand_result(STAND_ABI *configure)(stand_instance *self, const char *knobs_json,
                                       stand_error *err);

    /* Writes where clients connect, as JSON to `out`:
     *   {"scheme":"https","host":"127.0.0.1","port":8443,"alpn":["h2","http/1.1"]}
     * Returns STAND_OK or STAND_E_BAD_STATE (not configured). */
    stand_result(STAND_ABI *endpoint)(stand_instance *self, const stand_sink *out,
                                      stand_error *err);

    /* Writes the effective settings that matter for a fair comparison as a
     * JSON object to `out`, so the report can list where compared systems
     * differ. Expected keys: "version", "workers", "max_connections",
     * "upstream_keepalive" (bool, what is in force), "upstream_keepalive_source"
     * ("knob" or "<proxy> default"), "upstream_pool" (what reuse means here),
     * "websocket", and with TLS "tls_key_type" ("EC P-256", "RSA 4096").
     * Keys that explain another ("upstream_pool", "<key>_source",
     * "<key>_note", "<key>_means") are shown but not compared: the host's
     * defaults-differ finding names every other key whose value differs
     * between the compared proxies while the scenario did not set it.
     * Returns STAND_OK. */
    stand_result(STAND_ABI *effective_defaults)(stand_instance *self, const stand_sink *out,
                                                stand_error *err);
} stand_proxy;

#endif
