/* stand.probe/1: self-timed jobs (disk, CPU) run by the plugin itself.
 *
 * Unlike panels and proxies, a probe measures on its own (an I/O engine
 * timing each I/O); the host still samples the box around it and checks the
 * probe's numbers with its detectors. Calls are [control]; run() reports
 * progress and checks cancellation through stand.progress/1. */
#ifndef STAND_EXT_PROBE_H
#define STAND_EXT_PROBE_H

#include <stdint.h>

#include "../plugin.h"

#define STAND_PROBE_ID "stand.probe/1"

typedef struct stand_probe {
    uint32_t struct_size;

    /* Writes the job catalogue as a JSON array to `out`:
     *   [{"id":"seq1m-q8t1-read","description":"...","params_schema":{...}}]
     * Returns STAND_OK. */
    stand_result(STAND_ABI *list_jobs)(stand_instance *self, const stand_sink *out,
                                       stand_error *err);

    /* Prepares job `job_id` with `params_json` (only read during the call):
     * creates and fills test files, warms up. Not timed as the result.
     * Returns STAND_OK, STAND_E_NOT_FOUND (job), STAND_E_INVALID_ARGUMENT, STAND_E_IO. */
    stand_result(STAND_ABI *prepare)(stand_instance *self, const char *job_id,
                                     const char *params_json, stand_error *err);

    /* Runs a prepared job and writes its result as JSON to `out`:
     *   {"metrics":{"mib_s":512.3,"iops":131000},
     *    "latency_histogram_ns":[[81200,17],[81300,4]],
     *    "facts":{"filesystem":"ext4"},"notes":["..."]}
     * metrics: finite numbers. latency_histogram_ns (optional): [value, count]
     * pairs, ascending, at least 1/1024 relative resolution; the host
     * computes lat_p50_us .. lat_p999_us from it, so a probe must not send
     * those itself. facts: strings/numbers a reader needs to reproduce the
     * number. notes: caveats the report prints once. Any other key is refused
     * by the host and fails the step.
     * Returns STAND_OK, STAND_E_BAD_STATE (not prepared), STAND_E_CANCELLED, STAND_E_IO. */
    stand_result(STAND_ABI *run)(stand_instance *self, const char *job_id, const stand_sink *out,
                                 stand_error *err);

    /* Ends the job and removes what only it used. A test file several jobs
     * share may stay until the instance is destroyed (the host cleans up
     * after every step; rewriting a large file per job would dominate the
     * run). Returns STAND_OK or STAND_OK_NOTHING_TO_DO (not prepared). */
    stand_result(STAND_ABI *cleanup)(stand_instance *self, const char *job_id, stand_error *err);
} stand_probe;

#endif
