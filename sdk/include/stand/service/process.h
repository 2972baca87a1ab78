/* stand.process/1: spawning and controlling processes.
 *
 * Plugins never fork on their own: the host puts a child into the measured
 * box (cgroup) when asked, tracks it, and kills what is left when the
 * instance is destroyed or the run is interrupted. Every child stays in the
 * session of the instance's worker process, in a process group of its own
 * or not, so a worker the host kills (a call that ignored cancellation)
 * takes them all with it; a program that calls setsid() itself leaves that
 * session and is only caught by its box.
 *
 * Spawn spec (JSON):
 *   {"argv": ["/usr/sbin/nginx", "-g", "daemon off;"],  required, argv[0] is
 *                                 looked up in PATH when it has no '/'
 *    "env": {"K": "V"},           added to (or replacing) the host's environment
 *    "clear_env": false,          start from an empty environment instead
 *    "cwd": "/path",              working directory (default: the host's)
 *    "box": "measured",           a named group of the run ("measured", "client");
 *                                 absent: not placed in any group
 *    "output": "/path/log",       stdout+stderr appended to this file (created
 *                                 with mode 0600: output may hold secrets);
 *                                 absent: a file in the run dir, see status
 *    "new_process_group": true,   signal() reaches the whole group
 *    "user": "postgres"}          (ABI 1.2) run as this user, with its group and
 *                                 supplementary groups, set after joining the
 *                                 box and before "cwd" is entered; the
 *                                 environment is not changed (HOME, USER
 *                                 stay). NOT_FOUND for an unknown user, IO
 *                                 when it cannot be taken (stand is not
 *                                 root); a 1.0/1.1 host refuses the key as
 *                                 unknown (INVALID_ARGUMENT)
 *
 * In argv elements and env values, "${stand.box.NAME}" is replaced by the
 * cgroup path of box NAME below the hierarchy root, e.g.
 * "/stand/20261130-quick.4242.8151/measured": a docker-based plugin passes
 * {"argv": ["docker", "run", "--cgroup-parent=${stand.box.measured}", ...]}
 * (no "box" key: the docker CLI is a client; dockerd creates the container
 * under that parent, cgroupfs driver). An unknown NAME is
 * STAND_E_INVALID_ARGUMENT.
 */
#ifndef STAND_SERVICE_PROCESS_H
#define STAND_SERVICE_PROCESS_H

#include <stdint.h>

#include "../host.h"
#include "../sink.h"

#define STAND_PROCESS_SERVICE_ID "stand.process/1"

typedef uint64_t stand_process; /* 0 is never a valid handle */

enum {
    STAND_PROCESS_RUNNING = 0,
    STAND_PROCESS_EXITED = 1,   /* exit_code is valid */
    STAND_PROCESS_SIGNALED = 2  /* signal is valid */
};

typedef struct stand_process_status {
    uint32_t struct_size;
    int32_t state;     /* STAND_PROCESS_* */
    int32_t exit_code; /* when EXITED */
    int32_t signal;    /* when SIGNALED */
    int64_t pid;       /* operating system pid */
} stand_process_status;

typedef struct stand_process_service {
    uint32_t struct_size;

    /* Starts a process. [control] `spec_json` is only read during the call.
     * Returns STAND_OK and sets *out_process, or STAND_E_INVALID_ARGUMENT
     * (bad spec, unknown box), STAND_E_NOT_FOUND (executable missing),
     * STAND_E_IO (exec or cgroup placement failed: errno text in `err`).
     * The handle stays valid until release() or the instance's destroy(). */
    stand_result(STAND_ABI *spawn)(const stand_host *host, const char *spec_json,
                                   stand_process *out_process, stand_error *err);

    /* Sends a signal (SIGTERM, SIGKILL, SIGHUP, ...) to the process, or to its
     * process group when it has one. SIGKILL also kills every process it
     * started that left its group (setsid, a daemon's double fork), so
     * nothing it started outlives it. [control] Returns STAND_OK,
     * STAND_OK_NOTHING_TO_DO when it has already exited, or
     * STAND_E_NOT_FOUND for an unknown handle. */
    stand_result(STAND_ABI *signal)(const stand_host *host, stand_process process,
                                    int32_t signal_number, stand_error *err);

    /* Waits up to `timeout_ms` (0: just poll, -1: forever) for the process to
     * end and fills *status. [control] Returns STAND_OK when it ended,
     * STAND_E_TIMEOUT when still running (status->state RUNNING),
     * STAND_E_NOT_FOUND for an unknown handle, STAND_E_CANCELLED when the host
     * cancelled the current call (stand.progress/1) while the process still
     * ran (status->state RUNNING; a poll, timeout 0, answers TIMEOUT): stop
     * waiting, release() kills it. */
    stand_result(STAND_ABI *wait)(const stand_host *host, stand_process process, int64_t timeout_ms,
                                  stand_process_status *status, stand_error *err);

    /* Forgets a handle; a process still running is killed (SIGKILL to its
     * group and every process it started) and reaped first. [control] Unknown handles are ignored. */
    void(STAND_ABI *release)(const stand_host *host, stand_process process);

    /* Writes the path of the process's output file (no NUL) to `out`. [control]
     * Returns STAND_OK or STAND_E_NOT_FOUND. */
    stand_result(STAND_ABI *output_path)(const stand_host *host, stand_process process,
                                         const stand_sink *out, stand_error *err);
} stand_process_service;

#endif
