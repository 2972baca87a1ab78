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

    /* Non-zero when the host wants the current call to stop early (Ctrl-C, a
     * step timeout). [any] A plugin that sees it returns STAND_E_CANCELLED
     * soon; the host kills the instance's process if it does not. */
    int32_t(STAND_ABI *cancelled)(const stand_host *host);
} stand_progress_service;

#endif
