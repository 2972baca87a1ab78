/* stand.clock/1: the host's clocks. Plugins use these instead of their own so
 * that every timestamp in a run comes from one source. */
#ifndef STAND_SERVICE_CLOCK_H
#define STAND_SERVICE_CLOCK_H

#include <stdint.h>

#include "../host.h"

#define STAND_CLOCK_SERVICE_ID "stand.clock/1"

typedef struct stand_clock_service {
    uint32_t struct_size;

    /* Monotonic nanoseconds (CLOCK_MONOTONIC); only differences mean anything. [any] */
    uint64_t(STAND_ABI *monotonic_ns)(const stand_host *host);

    /* Wall-clock nanoseconds since the Unix epoch (CLOCK_REALTIME). [any]
     * For labels only: never subtract two of these to time something. */
    uint64_t(STAND_ABI *wall_ns)(const stand_host *host);

    /* Sleeps at least `duration_ns` unless the host cancels the current step. [control]
     * Returns STAND_OK, or STAND_E_CANCELLED when woken early by cancellation. */
    stand_result(STAND_ABI *sleep_ns)(const stand_host *host, uint64_t duration_ns);
} stand_clock_service;

#endif
