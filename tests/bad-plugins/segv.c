/* Defect: create() writes through a NULL pointer (SIGSEGV). The pointer is read
 * from a volatile object, so the compiler can neither drop the store nor turn
 * it into a trap instruction. */
#include "bad_common.h"

static int *volatile null_pointer = NULL;

static stand_result STAND_ABI segv_create(const stand_host *host, const char *config_json, size_t config_len,
                                          stand_instance **out_instance, stand_error *err) {
    (void)host;
    (void)config_json;
    (void)config_len;
    (void)err;
    *out_instance = NULL;
    *null_pointer = 42;
    return STAND_E_INTERNAL;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-segv", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = segv_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
