// stand SDK C++ helper umbrella: include this in a C++ plugin. It brings
// every helper of stand/cpp/: the plugin macro and its bases (plugin.hpp:
// config, config_spec, error, host, interfaces, sink) and finding a program
// on PATH (executable.hpp: find_on_path, resolve_executable,
// require_executable).
#pragma once
#include "stand.h"
#include "cpp/executable.hpp"
#include "cpp/plugin.hpp"
