// Builds the ExchangeRecord of an answered call (see exchange_record.hpp).
#pragma once

#include "host/http/connection.hpp"
#include "host/http/exchange_record.hpp"

#include <set>
#include <string>
#include <string_view>

namespace stand::host::http {

// The response headers an adapter reads, lower case.
const std::set<std::string>& recorded_headers();

// "Application/JSON; charset=utf-8" -> "application/json".
std::string media_type(std::string_view content_type);

// "sid=abc; Path=/" -> "sid".
std::string cookie_name(std::string_view set_cookie);

ExchangeRecord describe_exchange(std::string label, std::string method, std::string path, const Response& response);

}  // namespace stand::host::http
