/* Defect: the stand.proxy/1 table has struct_size 8, smaller than its v1 size. */
#include "bad_common.h"

#include <stand/ext/proxy.h>

static const char *const interfaces[] = {STAND_PROXY_ID, NULL};

static stand_result STAND_ABI proxy_configure(stand_instance *self, const char *knobs_json, stand_error *err) {
    (void)self;
    (void)knobs_json;
    bad_set_error(err, "bad plugin: not a real proxy");
    return STAND_E_UNSUPPORTED;
}

static stand_result STAND_ABI proxy_endpoint(stand_instance *self, const stand_sink *out, stand_error *err) {
    (void)self;
    (void)out;
    bad_set_error(err, "bad plugin: not a real proxy");
    return STAND_E_BAD_STATE;
}

static stand_result STAND_ABI proxy_effective_defaults(stand_instance *self, const stand_sink *out, stand_error *err) {
    (void)self;
    (void)out;
    bad_set_error(err, "bad plugin: not a real proxy");
    return STAND_E_UNSUPPORTED;
}

static const stand_proxy proxy = {
    .struct_size = 8,
    .configure = proxy_configure,
    .endpoint = proxy_endpoint,
    .effective_defaults = proxy_effective_defaults,
};

static const void *STAND_ABI proxy_get_interface(stand_instance *instance, const char *interface_id) {
    (void)instance;
    if (interface_id != NULL && strcmp(interface_id, STAND_PROXY_ID) == 0) return &proxy;
    return NULL;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-table-small", interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = bad_ok_create,
    .destroy = bad_ok_destroy,
    .get_interface = proxy_get_interface,
};

BAD_EXPORT_ENTRY(entry)
