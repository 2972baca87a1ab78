#include "compat/panel_target.hpp"

#include "text/text_file.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace stand::compat {

namespace json = boost::json;
using Kind = PanelTargetKey::Kind;

namespace {

std::chrono::seconds seconds_of(const json::value& v) { return std::chrono::seconds(v.as_int64()); }

const std::array<PanelTargetKey, 8> kKeys{{
    {"config", Kind::object, 0, 0, true, "required",
     "the plugin config for this target, passed to create() (and the default of --config)",
     [](PanelTarget& t, const json::value& v) { t.config = v.as_object(); }},
    {"wrong_credentials", Kind::object, 0, 0, false, "absent",
     "merged over \"config\" (its keys replace config's) for panel.wrong-credentials-error, which expects "
     "bootstrap or an admin call to fail: a wrong password ({\"password\": \"nope\"}), or, for a panel whose "
     "admin API takes an API key or token instead of a username and password, a wrong key "
     "({\"api_key\": \"wrong\"}, under the adapter's own config key); absent, that check fails asking for it",
     [](PanelTarget& t, const json::value& v) { t.wrong_credentials = v.as_object(); }},
    {"users", Kind::integer, 2, 1000, false, "5",
     "users created by panel.create-users-unique, panel.subscriptions-decode and panel.restart-keeps-users",
     [](PanelTarget& t, const json::value& v) { t.users = static_cast<int>(v.as_int64()); }},
    {"ready_timeout_s", Kind::integer, 1, 3600, false, "60",
     "seconds from a start or restart until readiness answers; also how long a subscription server or core "
     "that comes up after readiness is waited for",
     [](PanelTarget& t, const json::value& v) { t.ready_timeout = seconds_of(v); }},
    {"check_timeout_s", Kind::integer, 1, 7200, false, "180",
     "seconds per panel check: its child process is killed after it",
     [](PanelTarget& t, const json::value& v) { t.check_timeout = seconds_of(v); }},
    {"revoke_within_s", Kind::integer, 1, 3600, false, "15",
     "seconds after delete_user within which a new connection with the deleted user's Hysteria 2 credential "
     "must be refused (panel.delete-user-stops-tunnel)",
     [](PanelTarget& t, const json::value& v) { t.revoke_within = seconds_of(v); }},
    {"unserved_links", Kind::reason, 0, 0, false, "absent",
     "why the links' endpoints cannot be connected to here (e.g. \"the core runs on nodes, none here\"): "
     "panel.restart-keeps-users names them not checked instead of connecting to every TCP endpoint and "
     "authenticating at every Hysteria 2 endpoint; absent, every link endpoint must serve after a restart",
     [](PanelTarget& t, const json::value& v) { t.unserved_links = std::string(v.as_string()); }},
    {"unchecked_listeners", Kind::reason, 0, 0, false, "absent",
     "why panel.listens-only-configured cannot see the panel's sockets (no box, no process in it, only "
     "containers' own network namespaces): the check is skipped with this reason; absent, it fails then",
     [](PanelTarget& t, const json::value& v) { t.unchecked_listeners = std::string(v.as_string()); }},
}};

// "" when `value` has the key's type, else what was expected.
std::string type_problem(const PanelTargetKey& key, const json::value& value) {
    const bool ok = key.kind == Kind::object    ? value.is_object()
                    : key.kind == Kind::integer ? value.is_int64() && value.as_int64() >= key.min &&
                                                      value.as_int64() <= key.max
                                                : value.is_string() && !value.as_string().empty();
    if (ok) return "";
    const std::string type = key.type();
    return (type.starts_with("o") || type.starts_with("i") ? "expected an " : "expected a ") + type;
}

std::string key_names() {
    std::string out;
    for (const auto& k : kKeys) out += (out.empty() ? "" : ", ") + std::string(k.name);
    return out;
}

}  // namespace

std::string PanelTargetKey::type() const {
    switch (kind) {
    case Kind::object: return "object";
    case Kind::integer: return "integer " + std::to_string(min) + ".." + std::to_string(max);
    case Kind::reason: return "non-empty string";
    }
    return {};
}

std::span<const PanelTargetKey> panel_target_keys() { return kKeys; }

PanelTarget load_panel_target(const std::filesystem::path& file) {
    std::string text;
    try {
        text = text::read_input_file(file);
    } catch (const text::TextFileError& e) {
        throw std::runtime_error(std::string("--target-config: ") + e.what());
    }
    boost::system::error_code ec;
    json::parse_options opts;
    opts.allow_comments = true;
    opts.allow_trailing_commas = true;
    auto v = json::parse(text, ec, {}, opts);
    auto fail = [&](const std::string& path, const std::string& what) {
        return std::runtime_error(file.string() + ": " + path + ": " + what);
    };
    if (ec) throw fail("$", "not JSON: " + ec.message());
    if (!v.is_object()) throw fail("$", "expected an object");
    PanelTarget t;
    t.file = file.string();
    for (const auto& [name, value] : v.as_object()) {
        const std::string path = "$." + std::string(name);
        const auto key = std::find_if(kKeys.begin(), kKeys.end(), [&](const PanelTargetKey& k) { return k.name == name; });
        if (key == kKeys.end()) throw fail(path, "unknown key (expected " + key_names() + "; see stand compat --help)");
        if (auto problem = type_problem(*key, value); !problem.empty()) throw fail(path, problem);
        key->store(t, value);
    }
    for (const auto& key : kKeys)
        if (key.required && !v.as_object().contains(key.name))
            throw fail("$." + std::string(key.name), "missing: " + std::string(key.meaning));
    return t;
}

}  // namespace stand::compat
