/* Defect: create() never returns (sleeps in an endless loop). */
#define _POSIX_C_SOURCE 200809L
#include "bad_common.h"

#include <time.h>

static stand_result STAND_ABI hang_create(const stand_host *host, const char *config_json, size_t config_len,
                                          stand_instance **out_instance, stand_error *err) {
    struct timespec nap = {0, 100 * 1000 * 1000};
    (void)host;
    (void)config_json;
    (void)config_len;
    (void)err;
    *out_instance = NULL;
    for (;;) nanosleep(&nap, NULL);
    return STAND_E_INTERNAL; /* not reached */
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-hang", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = hang_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
