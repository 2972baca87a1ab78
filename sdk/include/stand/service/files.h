/* stand.files/1: where a plugin may write. */
#ifndef STAND_SERVICE_FILES_H
#define STAND_SERVICE_FILES_H

#include <stdint.h>

#include "../host.h"
#include "../sink.h"

#define STAND_FILES_SERVICE_ID "stand.files/1"

typedef struct stand_files_service {
    uint32_t struct_size;

    /* Writes the absolute path (no NUL) of the current run directory to
     * `out`. [any] Results (reports, logs) live there; the plugin may create
     * files under it but must not delete what it did not create.
     * Returns STAND_OK or STAND_E_IO when it cannot be created. */
    stand_result(STAND_ABI *run_dir)(const stand_host *host, const stand_sink *out, stand_error *err);

    /* Writes the absolute path (no NUL) of this plugin instance's data
     * directory to `out`, creating it (mode 0700) if needed. [any] It is
     * private to the plugin id within the run: data dirs of the system under
     * test, generated credentials, downloaded artifacts.
     * Returns STAND_OK or STAND_E_IO. */
    stand_result(STAND_ABI *data_dir)(const stand_host *host, const stand_sink *out, stand_error *err);
} stand_files_service;

#endif
