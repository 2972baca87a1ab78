/* Defect: malformed plugin id (upper case, space, "!"). */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = {
    .struct_size = sizeof(stand_plugin_descriptor),
    .id = "Bad Id!",
    .name = "Bad plugin",
    .version = "0.0.1",
    .description = "A deliberately broken plugin (tests/bad-plugins).",
    .interfaces = bad_no_interfaces,
    .config_schema_json = "{\"type\":\"object\",\"additionalProperties\":false}",
    .min_host_abi_minor = 0,
};

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
