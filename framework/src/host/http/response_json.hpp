// The response document of stand.http/1 (see sdk service/http.h).
#pragma once

#include "host/http/connection.hpp"

#include <boost/json/object.hpp>

#include <string>

namespace stand::host::http {

boost::json::object response_json(const Response& response, const std::string& final_url,
                                  double elapsed_ms, int retry_waits);

}  // namespace stand::host::http
