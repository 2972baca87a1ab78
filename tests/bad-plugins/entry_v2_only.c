/* Defect: exports only stand_plugin_entry_v2 (a future ABI major), not _v1.
 * Built without the plugin version script (which would hide this symbol). */
#include "bad_common.h"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-entry-v2-only", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {2, 0},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

STAND_EXPORT const stand_plugin_entry *stand_plugin_entry_v2(void);
STAND_EXPORT const stand_plugin_entry *stand_plugin_entry_v2(void) { return &entry; }
