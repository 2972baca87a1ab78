/* Defect: create() fails on an invalid config but still sets *out_instance. */
#include "bad_common.h"

static stand_result STAND_ABI sloppy_create(const stand_host *host, const char *config_json, size_t config_len,
                                            stand_instance **out_instance, stand_error *err) {
    static stand_instance leftover;
    (void)host;
    if (!bad_config_is_empty_object(config_json, config_len)) {
        *out_instance = &leftover;
        bad_set_error(err, "config: this plugin takes no options; pass {}");
        return STAND_E_INVALID_ARGUMENT;
    }
    *out_instance = bad_new_instance();
    return *out_instance ? STAND_OK : STAND_E_INTERNAL;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-fail-sets-instance", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = sloppy_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
