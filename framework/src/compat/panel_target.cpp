#include "compat/panel_target.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace stand::compat {

namespace json = boost::json;

PanelTarget load_panel_target(const std::filesystem::path& file) {
    std::ifstream in(file);
    if (!in) throw std::runtime_error("--target-config: cannot read " + file.string());
    std::stringstream ss;
    ss << in.rdbuf();
    boost::system::error_code ec;
    json::parse_options opts;
    opts.allow_comments = true;
    opts.allow_trailing_commas = true;
    auto v = json::parse(ss.str(), ec, {}, opts);
    auto fail = [&](const std::string& path, const std::string& what) {
        return std::runtime_error(file.string() + ": " + path + ": " + what);
    };
    if (ec) throw fail("$", "not JSON: " + ec.message());
    if (!v.is_object()) throw fail("$", "expected an object");
    PanelTarget t;
    t.file = file.string();
    for (const auto& [key, value] : v.as_object()) {
        const std::string path = "$." + std::string(key);
        auto seconds = [&](int lo, int hi) {
            if (!value.is_int64() || value.as_int64() < lo || value.as_int64() > hi)
                throw fail(path, "expected an integer " + std::to_string(lo) + ".." + std::to_string(hi));
            return std::chrono::seconds(value.as_int64());
        };
        if (key == "config" || key == "wrong_credentials") {
            if (!value.is_object()) throw fail(path, "expected an object");
            (key == "config" ? t.config : t.wrong_credentials) = value.as_object();
        } else if (key == "users") {
            t.users = static_cast<int>(seconds(2, 1000).count());
        } else if (key == "ready_timeout_s") {
            t.ready_timeout = seconds(1, 3600);
        } else if (key == "check_timeout_s") {
            t.check_timeout = seconds(1, 7200);
        } else if (key == "unserved_links" || key == "unchecked_listeners") {
            if (!value.is_string() || value.as_string().empty()) throw fail(path, "expected a non-empty reason");
            (key == "unserved_links" ? t.unserved_links : t.unchecked_listeners) = std::string(value.as_string());
        } else {
            throw fail(path, "unknown key (expected config, wrong_credentials, users, ready_timeout_s, check_timeout_s, "
                             "unserved_links, unchecked_listeners)");
        }
    }
    if (!v.as_object().contains("config")) throw fail("$.config", "missing: the plugin config for this target");
    return t;
}

}  // namespace stand::compat
