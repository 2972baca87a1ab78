// Defect: create() is a plain extern "C" function that lets a C++ exception
// (std::runtime_error) escape through the C ABI.
#include "bad_common.h"

#include <stdexcept>

extern "C" {

static stand_result STAND_ABI throw_create(const stand_host *, const char *, size_t, stand_instance **out_instance,
                                           stand_error *) {
    *out_instance = nullptr;
    throw std::runtime_error("bad-throw: exception escaping create()");
}

}  // extern "C"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-throw", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = throw_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
