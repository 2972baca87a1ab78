/* stand.progress/1: progress and cancellation for long plugin calls. */
#ifndef STAND_SERVICE_PROGRESS_H
#define STAND_SERVICE_PROGRESS_H

#include <stdint.h>

#include "../host.h"

#define STAND_PROGRESS_SERVICE_ID "stand.progress/1"

typedef struct stand_progress_service {
    uint32_t struct_size;

    /* Reports progress of the current call: `fraction` in [0,1], or < 0 when
     * unknown; `message` (UTF-8, may be NULL) is only read during the call.
     * [control] Never fails. */
    void(STAND_ABI *report)(const stand_host *host, double fraction, const char *message);

    /* Non-zero when the host wants the current call to stop early (Ctrl-C or
     * SIGTERM of the run, a step timeout). [any] Once non-zero it stays so for
     * the instance's life: the calls that follow (stop(), cleanup(), destroy)
     * see it too and should only release what they hold. A plugin that sees it
     * returns STAND_E_CANCELLED soon: a long job polls it at least every
     * 100 ms, and stand.clock/1 sleep_ns() and stand.process/1 wait() end
     * early with STAND_E_CANCELLED. The host kills the instance's process,
     * with every process it started (stand.process/1), when the call has not
     * returned 1 s after Ctrl-C/SIGTERM, or 2 s after a step timeout. */
    int32_t(STAND_ABI *cancelled)(const stand_host *host);
} stand_progress_service;

#endif
