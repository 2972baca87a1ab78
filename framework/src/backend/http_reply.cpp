#include "backend/http_reply.hpp"

#include <boost/beast/http/field.hpp>

namespace stand::backend {

namespace http = boost::beast::http;

Reply make_reply(const Request& request, http::status status, std::string_view content_type, std::string_view body) {
    Reply reply{status, request.version()};
    reply.set(http::field::content_type, content_type);
    reply.keep_alive(request.keep_alive());
    if (request.method() != http::verb::head) reply.body() = {body.data(), body.size()};
    reply.content_length(body.size());
    return reply;
}

std::string_view path_of(const Request& request) {
    const std::string_view target = request.target();
    return target.substr(0, target.find('?'));
}

}  // namespace stand::backend
