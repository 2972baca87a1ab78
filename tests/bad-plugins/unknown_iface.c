/* Defect: get_interface() returns a non-NULL table for every id, even unknown
 * ones (and for ""). */
#include "bad_common.h"

static const uint32_t any_table[4] = {(uint32_t)sizeof(any_table), 0, 0, 0};

static const void *STAND_ABI yes_get_interface(stand_instance *instance, const char *interface_id) {
    (void)instance;
    (void)interface_id;
    return any_table;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-unknown-iface", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = yes_get_interface,
};

BAD_EXPORT_ENTRY(entry)
