/* Defect: entry member get_interface is NULL. */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-null-get-interface", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = NULL,
};

BAD_EXPORT_ENTRY(entry)
