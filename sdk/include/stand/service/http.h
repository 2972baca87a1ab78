/* stand.http/1: the host's HTTP/1.1 client for the control plane.
 *
 * Plugins never bring their own HTTP stack: the host times and counts every
 * call, so a run can report how many admin calls a panel needed, how long
 * they took and how many 429 waits it imposed.
 *
 * Requests and responses are UTF-8 JSON documents.
 *
 * Session options (session_open), all optional:
 *   {"insecure_tls": false,      skip certificate and host name checks (explicit only)
 *    "ca_file": "/path.pem",     extra trust anchor for https
 *    "follow_redirects": false,  follow 301/302/303/307/308, at most 5 hops
 *    "timeout_ms": 30000,        default per-call timeout (connect+send+receive)
 *    "max_429_waits": 60,        how many 429 answers to wait out per call
 *    "max_retry_after_ms": 60000, longest single Retry-After wait honoured
 *    "cookies": true}            keep a cookie jar for this session
 *
 * Request (request):
 *   {"method": "POST", "url": "http://127.0.0.1:2053/login",
 *    "headers": {"X-CSRF-Token": "..."},   (name -> value, optional)
 *    "json": {...}            body sent as application/json, or
 *    "form": {"k": "v"}       body sent as application/x-www-form-urlencoded, or
 *    "body": "text"           body sent as is (set Content-Type yourself),
 *    "timeout_ms": 2000,      overrides the session default
 *    "label": "create_user"}  names the call in the host's call log
 *
 * Response (written to the sink as one JSON object):
 *   {"status": 200, "reason": "OK",
 *    "headers": {"content-type": "..."},  (lower-case names; repeated ones joined by ", ",
 *                                          except set-cookie: the last one)
 *    "body": "...",           the body as text when it is valid UTF-8, else absent and
 *    "body_base64": "...",    the body base64-encoded
 *    "elapsed_ms": 3.2,       this call including 429 waits
 *    "retry_waits": 0,        429 answers waited out
 *    "url": "..."}            the final URL after redirects
 *
 * A non-2xx status is NOT an error of request(): the plugin decides what it
 * expects. A 429 answered after max_429_waits is returned as the response. */
#ifndef STAND_SERVICE_HTTP_H
#define STAND_SERVICE_HTTP_H

#include <stdint.h>

#include "../host.h"
#include "../sink.h"

#define STAND_HTTP_SERVICE_ID "stand.http/1"

typedef uint64_t stand_http_session; /* 0 is never a valid session */

typedef struct stand_http_service {
    uint32_t struct_size;

    /* Opens a session (connection reuse and cookie jar). [control]
     * `options_json` may be NULL for defaults; only read during the call.
     * Returns STAND_OK and sets *out_session, or STAND_E_INVALID_ARGUMENT
     * (unknown option or wrong type, named in `err`). */
    stand_result(STAND_ABI *session_open)(const stand_host *host, const char *options_json,
                                          stand_http_session *out_session, stand_error *err);

    /* Closes a session and its connections. [control] Unknown ids are ignored. */
    void(STAND_ABI *session_close)(const stand_host *host, stand_http_session session);

    /* Performs one request and blocks until the response or the timeout. [control]
     * `request_json` is only read during the call; the response JSON goes to
     * `response` (see the top of this file). Results: STAND_OK when any HTTP
     * response arrived; STAND_E_INVALID_ARGUMENT (bad request JSON or URL),
     * STAND_E_UNREACHABLE (connect failed), STAND_E_TIMEOUT, STAND_E_IO
     * (connection reset, TLS failure: message says which),
     * STAND_E_CANCELLED, STAND_E_BUFFER_TOO_SMALL (from the sink).
     * The host refuses non-loopback targets unless the user allowed them:
     * STAND_E_INVALID_ARGUMENT with a message saying so. */
    stand_result(STAND_ABI *request)(const stand_host *host, stand_http_session session,
                                     const char *request_json, const stand_sink *response,
                                     stand_error *err);
} stand_http_service;

#endif
