// PasarGuard's config, declared once (the constructor reads it and the
// plugin's JSON Schema is written from it): the panel kit's launch and
// Hysteria 2 keys and the panel's own.
#pragma once

#include <stand/stand.hpp>

namespace stand_pasarguard {

const stand::cpp::ConfigSpec& config_spec();

}  // namespace stand_pasarguard
