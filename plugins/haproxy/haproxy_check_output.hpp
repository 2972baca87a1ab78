// Reads what `haproxy -v` and `haproxy -c` print.
#pragma once

#include <string>

namespace stand_haproxy {

// The first line of `haproxy -v`, e.g. "HAProxy version 2.6.12-1+deb12u4 2026/10/17 - https://haproxy.org/".
std::string first_line(const std::string& text);

// "2.6.12-1+deb12u4" from that line; empty when it is not there.
std::string version_from_banner(const std::string& text);

// The alerts of `haproxy -c` without their "[ALERT] (pid) : config : " prefix,
// joined with "; "; the one naming the file and line comes first. Empty when
// there is no alert.
std::string check_alerts(const std::string& text);

}  // namespace stand_haproxy
