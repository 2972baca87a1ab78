#include <stand/kits/panel/admin_api.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>

namespace stand_panel_kit {

namespace json = boost::json;
using stand::cpp::Error;

AdminApi::AdminApi(const stand::cpp::Host& host, std::string panel, std::string base_url,
                   const json::object& session_options)
    : host_(host), panel_(std::move(panel)), base_url_(std::move(base_url)), session_options_(session_options) {
    while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
    reset_session();
}

void AdminApi::reset_session() { session_ = std::make_unique<stand::cpp::HttpSession>(host_, session_options_); }

std::string excerpt(const std::string& body) {
    std::string out;
    for (char c : body.substr(0, 200)) out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
    if (body.size() > 200) out += "...";
    return out.empty() ? "(empty body)" : out;
}

std::string set_cookie(const Reply& reply) {
    const auto* headers = reply.response.if_contains("headers");
    const auto* set = headers != nullptr && headers->is_object() ? headers->as_object().if_contains("set-cookie") : nullptr;
    if (set == nullptr || !set->is_string()) return {};
    const std::string_view value = set->get_string();
    return std::string(value.substr(0, value.find(';')));
}

Error bad_response(const std::string& panel, const std::string& operation, const std::string& what, const Reply& reply) {
    return Error(STAND_E_BAD_RESPONSE, panel + ": " + operation + ": " + what + " (HTTP " + std::to_string(reply.status) +
                                           ", body: " + excerpt(reply.body) + ")");
}

Reply AdminApi::send(const std::string& operation, json::object request) const {
    request["label"] = panel_ + " " + operation;
    json::object headers = headers_;
    if (auto* own = request.if_contains("headers"); own && own->is_object())
        for (const auto& [k, v] : own->as_object()) headers[k] = v;
    if (!headers.empty()) request["headers"] = headers;
    Reply reply;
    try {
        reply.response = session_->request(request);
    } catch (const Error& e) {
        throw Error(e.code(), panel_ + ": " + operation + ": " + e.what());
    }
    reply.status = static_cast<int>(reply.response.at("status").to_number<std::int64_t>());
    if (auto* b = reply.response.if_contains("body"); b && b->is_string()) reply.body = std::string(b->as_string());
    return reply;
}

namespace {

bool listed(const std::vector<int>& list, int status) {
    return std::find(list.begin(), list.end(), status) != list.end();
}

}  // namespace

void AdminApi::on_refused(std::function<void(AdminApi&)> sign_in, std::function<bool(const Reply&)> refused) {
    sign_in_ = std::move(sign_in);
    refused_ = refused ? std::move(refused) : [](const Reply& r) { return r.status == 401; };
}

Reply AdminApi::call(const std::string& operation, json::object request, std::vector<int> expect, bool parse_json) {
    Reply reply = send(operation, request);
    if (sign_in_ && !signing_in_ && !listed(expect, reply.status) && refused_(reply)) {
        signing_in_ = true;
        try {
            sign_in_(*this);
        } catch (...) {
            signing_in_ = false;
            throw;
        }
        signing_in_ = false;
        reply = send(operation, std::move(request));
    }
    if (!listed(expect, reply.status)) {
        std::string want;
        for (int s : expect) want += (want.empty() ? "" : " or ") + std::to_string(s);
        throw bad_response(panel_, operation, "expected HTTP " + want, reply);
    }
    if (parse_json && !reply.body.empty()) {
        boost::system::error_code ec;
        reply.json = json::parse(reply.body, ec);
        if (ec) throw bad_response(panel_, operation, "the body is not JSON", reply);
    }
    return reply;
}

const json::value& member(const json::value& v, const std::string& panel, const std::string& operation,
                          std::initializer_list<const char*> path) {
    const json::value* at = &v;
    std::string where;
    for (const char* key : path) {
        where += std::string(".") + key;
        const json::object* o = at->if_object();
        const json::value* next = o ? o->if_contains(key) : nullptr;
        if (next == nullptr)
            throw Error(STAND_E_BAD_RESPONSE, panel + ": " + operation + ": the reply has no " + where.substr(1) + ": " +
                                                  excerpt(json::serialize(v)));
        at = next;
    }
    return *at;
}

std::string string_member(const json::value& v, const std::string& panel, const std::string& operation,
                          std::initializer_list<const char*> path) {
    const auto& m = member(v, panel, operation, path);
    if (!m.is_string())
        throw Error(STAND_E_BAD_RESPONSE, panel + ": " + operation + ": expected a string at " +
                                              std::string(*(path.end() - 1)) + ", got " + json::serialize(m));
    return std::string(m.as_string());
}

std::string id_member(const json::value& v, const std::string& panel, const std::string& operation,
                      std::initializer_list<const char*> path) {
    const auto& m = member(v, panel, operation, path);
    if (m.is_string()) return std::string(m.as_string());
    if (m.is_int64()) return std::to_string(m.as_int64());
    if (m.is_uint64()) return std::to_string(m.as_uint64());
    throw Error(STAND_E_BAD_RESPONSE, panel + ": " + operation + ": expected an id at " + std::string(*(path.end() - 1)) +
                                          ", got " + json::serialize(m));
}

std::uint64_t count_member(const json::value& v, const std::string& panel, const std::string& operation,
                           std::initializer_list<const char*> path) {
    const auto& m = member(v, panel, operation, path);
    if (m.is_uint64()) return m.as_uint64();
    if (m.is_int64() && m.as_int64() >= 0) return static_cast<std::uint64_t>(m.as_int64());
    // 2^64 as a double: a whole number below it fits.
    if (m.is_double() && m.as_double() >= 0 && m.as_double() < 18446744073709551616.0 && std::floor(m.as_double()) == m.as_double())
        return static_cast<std::uint64_t>(m.as_double());
    if (m.is_string()) {
        const std::string_view s = m.as_string();
        std::uint64_t n = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
        if (!s.empty() && ec == std::errc() && end == s.data() + s.size()) return n;
    }
    throw Error(STAND_E_BAD_RESPONSE, panel + ": " + operation + ": expected a count at " + std::string(*(path.end() - 1)) +
                                          ", got " + json::serialize(m));
}

}  // namespace stand_panel_kit
