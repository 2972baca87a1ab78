/* Defect: create() calls exit(7): the process ends inside a plugin call. */
#include "bad_common.h"

static stand_result STAND_ABI exit_create(const stand_host *host, const char *config_json, size_t config_len,
                                          stand_instance **out_instance, stand_error *err) {
    (void)host;
    (void)config_json;
    (void)config_len;
    (void)err;
    *out_instance = NULL;
    exit(7);
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-exit", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = exit_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
