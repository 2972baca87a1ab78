// Strict readers for the session options and request documents of
// stand.http/1: unknown keys and wrong types are refused, naming the key.
#pragma once

#include "host/http/url.hpp"

#include <boost/json/object.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stand::host::http {

struct SessionOptions {
    bool insecure_tls = false;
    std::string ca_file;
    bool follow_redirects = false;
    std::chrono::milliseconds timeout{30000};
    int max_429_waits = 60;
    std::chrono::milliseconds max_retry_after{60000};
    bool cookies = true;
};

struct RequestSpec {
    std::string method;
    Url url;
    std::vector<std::pair<std::string, std::string>> headers;  // as given
    bool has_body = false;
    std::string body;
    std::string content_type;  // implied by "json"/"form", empty for "body"
    std::optional<std::chrono::milliseconds> timeout;
    std::string label;  // "<METHOD> <path>" unless given
};

// Both throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT).
SessionOptions parse_session_options(const boost::json::object& options);
RequestSpec parse_request(const boost::json::object& request);

}  // namespace stand::host::http
