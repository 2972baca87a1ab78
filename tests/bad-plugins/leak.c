/* Defect: every create() allocates and touches 256 KiB that destroy() never
 * frees, so 100 create/destroy cycles grow RSS by about 25 MiB. */
#include "bad_common.h"

#define LEAK_BYTES (256u * 1024u)

/* Volatile, so the compiler cannot prove the allocation unused and drop it. */
static char *volatile last_leak;

static stand_result STAND_ABI leak_create(const stand_host *host, const char *config_json, size_t config_len,
                                          stand_instance **out_instance, stand_error *err) {
    char *lost;
    stand_result r = bad_ok_create(host, config_json, config_len, out_instance, err);
    if (r < 0) return r;
    lost = (char *)malloc(LEAK_BYTES);
    last_leak = lost;
    if (lost != NULL) memset(lost, 0xa5, LEAK_BYTES);
    return r;
}

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-leak", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = leak_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
