/* Defect: create() rejects an invalid config but writes no error message. */
#include "bad_common.h"

static stand_result STAND_ABI silent_create(const stand_host *host, const char *config_json, size_t config_len,
                                            stand_instance **out_instance, stand_error *err) {
    (void)host;
    (void)err;
    *out_instance = NULL;
    if (!bad_config_is_empty_object(config_json, config_len)) return STAND_E_INVALID_ARGUMENT;
    *out_instance = bad_new_instance();
    return *out_instance ? STAND_OK : STAND_E_INTERNAL;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-silent-fail", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = silent_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
