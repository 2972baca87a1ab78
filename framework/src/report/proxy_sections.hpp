// Summary sections of proxy comparisons: every system's effective defaults
// (seed 002 ranked defaults, not proxies), the TLS sessions the load
// negotiated, and where the system, backend and generator ran.
#pragma once

#include <boost/json.hpp>

#include <string>
#include <vector>

namespace stand::report {

// "## Defaults of the compared systems": from the first finished
// repetition of each plugin, the first configure step's effective_defaults()
// in full (a row per key, a column per plugin), then for each later
// configure step only the keys whose value changed. Empty without any.
std::string proxy_defaults_markdown(const std::vector<boost::json::object>& reps);

// "## TLS sessions": key type, protocol, cipher and ALPN per plugin and load
// step (every distinct value). Empty without any.
std::string tls_sessions_markdown(const std::vector<boost::json::object>& reps);

// "## CPU placement": the CPUs of the box, the backend and the generator.
// Empty when the run did not place them.
std::string placement_markdown(const std::vector<boost::json::object>& reps);

}  // namespace stand::report
