// The human-readable summary of a load run, in the spirit of wrk's.
#pragma once

#include "load/load_result.hpp"

#include <string>

namespace stand::load {

std::string format_report(const LoadResult& result);

// 45us, 1.23ms, 2.50s
std::string format_us(double us);
// 512B, 1.20KB, 3.40MB
std::string format_bytes(double bytes);

}  // namespace stand::load
