/* Defect: declares stand.proxy/1 but get_interface() returns NULL for it. */
#include "bad_common.h"

#include <stand/ext/proxy.h>

static const char *const interfaces[] = {STAND_PROXY_ID, NULL};

static const void *STAND_ABI proxy_get_interface(stand_instance *instance, const char *interface_id) {
    (void)instance;
    if (interface_id != NULL && strcmp(interface_id, STAND_PROXY_ID) == 0) return NULL;
    return NULL;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-iface-null-table", interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = proxy_get_interface,
};

BAD_EXPORT_ENTRY(entry)
