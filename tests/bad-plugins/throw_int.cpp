// Defect: create() is a plain extern "C" function that lets a C++ exception
// escape through the C ABI, of a type that is not a std::exception (an int).
#include "bad_common.h"

extern "C" {

static stand_result STAND_ABI throw_int_create(const stand_host *, const char *, size_t,
                                               stand_instance **out_instance, stand_error *) {
    *out_instance = nullptr;
    throw 42;
}

}  // extern "C"

static const stand_plugin_descriptor descriptor = BAD_DESCRIPTOR("bad-throw-int", bad_no_interfaces);

static const stand_plugin_entry entry = {
    .struct_size = sizeof(stand_plugin_entry),
    .abi = {STAND_ABI_MAJOR, STAND_ABI_MINOR},
    .descriptor = &descriptor,
    .create = throw_int_create,
    .destroy = bad_ok_destroy,
    .get_interface = bad_ok_get_interface,
};

BAD_EXPORT_ENTRY(entry)
