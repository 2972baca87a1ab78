/* stand.lifecycle/1: install, start, stop, restart and wipe a system under test.
 *
 * Every call is [control], may block for a long time (the host bounds each
 * with the step's timeout and can cancel through stand.progress/1), and
 * writes a message into `err` on failure. Processes are started through
 * stand.process/1 with "box": "measured" so they land in the measured group.
 *
 * The host, not the plugin, decides when the system is ready: it fires the
 * readiness request (below) every 50 ms until it gets the expected status,
 * and times cold start and restart from its own clock. */
#ifndef STAND_EXT_LIFECYCLE_H
#define STAND_EXT_LIFECYCLE_H

#include <stdint.h>

#include "../plugin.h"

#define STAND_LIFECYCLE_ID "stand.lifecycle/1"

typedef struct stand_lifecycle {
    uint32_t struct_size;

    /* Makes the system runnable (binaries, config, data dir); idempotent.
     * Returns STAND_OK, STAND_OK_NOTHING_TO_DO when already installed,
     * STAND_E_IO/STAND_E_NOT_FOUND (missing package or binary),
     * STAND_E_UNSUPPORTED (this install mode is not possible here). */
    stand_result(STAND_ABI *install)(stand_instance *self, stand_error *err);

    /* Starts the system and returns without waiting for readiness.
     * Returns STAND_OK, STAND_E_BAD_STATE (already running), STAND_E_IO. */
    stand_result(STAND_ABI *start)(stand_instance *self, stand_error *err);

    /* Stops the system and waits until its processes are gone.
     * Returns STAND_OK, STAND_OK_NOTHING_TO_DO (not running), STAND_E_TIMEOUT. */
    stand_result(STAND_ABI *stop)(stand_instance *self, stand_error *err);

    /* Restarts the way the system's operators do (systemctl restart, docker
     * restart, a reload signal, ...), returning without waiting for
     * readiness. Returns STAND_OK, STAND_E_BAD_STATE (not running), STAND_E_IO. */
    stand_result(STAND_ABI *restart)(stand_instance *self, stand_error *err);

    /* Removes all state (data dirs, databases, containers) so the next
     * start() is a first start. The system must be stopped.
     * Returns STAND_OK, STAND_E_BAD_STATE (still running), STAND_E_IO. */
    stand_result(STAND_ABI *wipe)(stand_instance *self, stand_error *err);

    /* Describes the readiness request as JSON to `out`:
     *   {"method":"GET","url":"http://127.0.0.1:2053/","headers":{...},
     *    "expect_status":[200],"per_try_timeout_ms":2000,"insecure_tls":false}
     * "insecure_tls": true skips certificate checks, for a system that
     * serves a self-signed test certificate (readiness is about liveness).
     * Returns STAND_OK or STAND_E_BAD_STATE (not configured yet). */
    stand_result(STAND_ABI *readiness)(stand_instance *self, const stand_sink *out, stand_error *err);

    /* Facts for the report, as JSON to `out`:
     *   {"versions":{"nginx":"1.22.1"},"data_dirs":["/..."],
     *    "artifacts":[{"path":"/usr/sbin/nginx","bytes":1234}],
     *    "defaults":{"keepalive_upstream":"off"}}
     * Keys are optional; unknown keys are kept as they are.
     * "secret_path_prefix": "/<secret>/" names a secret URL path prefix of
     * the system (a panel's admin path); recordings write it as {base}.
     * Returns STAND_OK or an error (the host records it and goes on). */
    stand_result(STAND_ABI *facts)(stand_instance *self, const stand_sink *out, stand_error *err);
} stand_lifecycle;

#endif
