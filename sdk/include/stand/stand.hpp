// stand SDK C++ helper umbrella: include this in a C++ plugin.
#pragma once
#include "stand.h"
#include "cpp/plugin.hpp"
