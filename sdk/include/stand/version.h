/* stand SDK: ABI and SDK version constants.
 *
 * The ABI major is part of the entry symbol's name (stand_plugin_entry_v1); a
 * breaking change adds a new symbol instead of changing this one. The minor
 * grows when members are appended to a struct or interfaces are added.
 * sdk/CMakeLists.txt parses these lines, so keep their shape. */
#ifndef STAND_VERSION_H
#define STAND_VERSION_H

#include <stdint.h>

#define STAND_ABI_MAJOR 1
#define STAND_ABI_MINOR 4
#define STAND_SDK_VERSION_STRING "1.7.0"

typedef struct stand_abi_version {
    uint16_t major;
    uint16_t minor;
} stand_abi_version;

#endif
