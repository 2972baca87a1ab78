/* Defect: entry struct_size stops before get_interface (smaller than ABI 1.0's entry). */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-entry-short", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = offsetof(stand_plugin_entry, get_interface),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
