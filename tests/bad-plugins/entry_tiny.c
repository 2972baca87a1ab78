/* Defect: entry struct_size 4, too small to even hold the ABI version. */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-entry-tiny", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = 4,
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
