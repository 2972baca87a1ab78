#include "host/http/response_json.hpp"

#include "host/http/body_codec.hpp"

#include <algorithm>
#include <cctype>

namespace stand::host::http {

boost::json::object response_json(const Response& response, const std::string& final_url,
                                  double elapsed_ms, int retry_waits) {
    boost::json::object headers;
    for (const auto& field : response) {
        std::string name(field.name_string());
        std::transform(name.begin(), name.end(), name.begin(),
                       [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
        const std::string_view value = field.value();
        auto* existing = headers.if_contains(name);
        if (existing == nullptr || name == "set-cookie")
            headers[name] = value;
        else
            existing->as_string().append(", ").append(value);
    }

    boost::json::object out;
    out["status"] = response.result_int();
    out["reason"] = response.reason();
    out["headers"] = std::move(headers);
    if (is_valid_utf8(response.body()))
        out["body"] = response.body();
    else
        out["body_base64"] = base64_encode(response.body());
    out["elapsed_ms"] = elapsed_ms;
    out["retry_waits"] = retry_waits;
    out["url"] = final_url;
    return out;
}

}  // namespace stand::host::http
