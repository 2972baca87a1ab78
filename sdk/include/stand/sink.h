/* stand SDK: stand_sink, the one way variable-sized output crosses the ABI.
 *
 * The receiver of the output creates the sink; the producer calls append()
 * zero or more times during the call that received the sink and never after it
 * returns. The sink's owner owns every byte; the producer never frees, keeps or
 * reads back anything. This replaces the two-call idiom for calls that have
 * side effects (creating a user twice to learn the size would be wrong). */
#ifndef STAND_SINK_H
#define STAND_SINK_H

#include <stddef.h>
#include <stdint.h>

#include "macros.h"
#include "result.h"

typedef struct stand_sink {
    uint32_t struct_size;
    void *context; /* owned by the sink's creator; opaque to the producer */

    /* Appends `size` bytes. [same thread as the call that received the sink]
     * `data` is only read during the call. Returns STAND_OK, or
     * STAND_E_BUFFER_TOO_SMALL when the owner set a size limit that is now
     * exceeded (the producer should stop and fail with that code). */
    stand_result(STAND_ABI *append)(const struct stand_sink *sink, const char *data, size_t size);
} stand_sink;

#endif
