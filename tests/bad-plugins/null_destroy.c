/* Defect: entry member destroy is NULL. */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-null-destroy", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = NULL,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
