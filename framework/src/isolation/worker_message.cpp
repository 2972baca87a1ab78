#include "isolation/worker_message.hpp"

#include <limits>

namespace stand::isolation {
namespace {

namespace json = boost::json;

const json::string* string_at(const json::object& m, const char* key) {
    const json::value* v = m.if_contains(key);
    return v == nullptr ? nullptr : v->if_string();
}

// An integer in [min, max] at `key`.
bool integer_at(const json::object& m, const char* key, std::int64_t min, std::int64_t max, std::int64_t& out) {
    const json::value* v = m.if_contains(key);
    if (v == nullptr || !v->is_int64() || v->get_int64() < min || v->get_int64() > max) return false;
    out = v->get_int64();
    return true;
}

WorkerMessage unexpected(std::string problem) {
    WorkerMessage w;
    w.problem = std::move(problem);
    return w;
}

}  // namespace

WorkerMessage read_worker_message(const json::object& m, std::int64_t expected_id) {
    const json::string* type = string_at(m, "type");
    if (type == nullptr) return unexpected("no \"type\"");
    WorkerMessage w;
    if (*type == "log" || *type == "progress") {
        const json::string* message = string_at(m, "message");
        if (message == nullptr) return unexpected("a " + std::string(*type) + " without a \"message\" string");
        w.message = std::string(*message);
        if (*type == "log") {
            std::int64_t level = 0;
            if (!integer_at(m, "level", std::numeric_limits<int>::min(), std::numeric_limits<int>::max(), level))
                return unexpected("a log without an integer \"level\"");
            w.kind = WorkerMessage::Kind::log;
            w.level = static_cast<int>(level);
        } else {
            const json::value* fraction = m.if_contains("fraction");
            boost::system::error_code ec;
            if (fraction != nullptr) w.fraction = fraction->to_number<double>(ec);
            if (fraction == nullptr || ec) return unexpected("a progress without a \"fraction\" number");
            w.kind = WorkerMessage::Kind::progress;
        }
        return w;
    }
    if (*type == "secret") {
        const json::string* value = string_at(m, "value");
        if (value == nullptr) return unexpected("a secret without a \"value\" string");
        w.kind = WorkerMessage::Kind::secret;
        w.message = std::string(*value);
        return w;
    }
    if (*type != "reply") return unexpected("type \"" + std::string(*type).substr(0, 40) + "\"");
    const json::value* id = m.if_contains("id");
    if (id == nullptr || *id != json::value(expected_id)) return unexpected("a reply to another request");
    std::int64_t code = 0;
    if (!integer_at(m, "result", std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max(),
                    code))
        return unexpected("a reply without an integer \"result\"");
    w.code = static_cast<std::int32_t>(code);
    if (const json::value* error = m.if_contains("error")) {
        if (!error->is_string()) return unexpected("a reply whose \"error\" is not a string");
        w.error = std::string(error->get_string());
    }
    if (const json::value* output = m.if_contains("output")) w.output = *output;
    w.kind = WorkerMessage::Kind::reply;
    return w;
}

}  // namespace stand::isolation
