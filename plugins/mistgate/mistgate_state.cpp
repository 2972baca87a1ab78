#include "mistgate_state.hpp"

#include <stand/cpp/error.hpp>
#include <stand/kits/panel/url.hpp>

#include <boost/json.hpp>

#include <cstdio>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace stand_mistgate {

namespace json = boost::json;
using stand::cpp::Error;

namespace {

std::string str(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    return v && v->is_string() ? std::string(v->as_string()) : std::string();
}

}  // namespace

State load_state(const std::filesystem::path& file) {
    State s;
    std::ifstream in{file};
    if (!in) return s;
    std::stringstream ss;
    ss << in.rdbuf();
    boost::system::error_code ec;
    auto v = json::parse(ss.str(), ec);
    if (ec || !v.is_object()) throw Error(STAND_E_IO, "mistgate: " + file.string() + " is not a JSON object");
    const auto& o = v.as_object();
    s.admin_url = str(o, "admin_url");
    s.setup_token = str(o, "setup_token");
    if (const auto* p = o.if_contains("setup_s"); p && p->is_number()) s.setup_s = p->to_number<double>();
    if (const auto* p = o.if_contains("owner"); p && p->is_bool()) s.owner = p->as_bool();
    s.totp_secret = str(o, "totp_secret");
    if (const auto* p = o.if_contains("totp_step"); p && p->is_number()) {
        auto n = p->to_number<std::int64_t>();
        if (n > 0 && n <= 3600) s.totp_step = static_cast<unsigned>(n);
    }
    if (const auto* p = o.if_contains("totp_last_step"); p && p->is_number())
        s.totp_last_step = p->to_number<std::int64_t>();
    s.profile_id = str(o, "profile_id");
    s.node_id = str(o, "node_id");
    s.inbound_id = str(o, "inbound_id");
    s.group_id = str(o, "group_id");
    if (const auto* p = o.if_contains("node_enrolled"); p && p->is_bool()) s.node_enrolled = p->as_bool();
    s.probe_user_id = str(o, "probe_user_id");
    s.probe_url = str(o, "probe_url");
    return s;
}

void save_state(const std::filesystem::path& file, const State& s) {
    json::object o{{"admin_url", s.admin_url},       {"setup_token", s.setup_token}, {"owner", s.owner},
                   {"totp_secret", s.totp_secret},   {"totp_step", s.totp_step},
                   {"totp_last_step", s.totp_last_step}, {"profile_id", s.profile_id},
                   {"node_id", s.node_id},           {"inbound_id", s.inbound_id},  {"group_id", s.group_id},
                   {"node_enrolled", s.node_enrolled}, {"probe_user_id", s.probe_user_id},
                   {"probe_url", s.probe_url}};
    if (s.setup_s) o["setup_s"] = *s.setup_s;
    const std::string text = json::serialize(o);
    std::filesystem::create_directories(file.parent_path());
    const std::string tmp = file.string() + ".tmp";
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw Error(STAND_E_IO, "mistgate: cannot write " + tmp);
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ok = ::fsync(fd) == 0 && ok;
    ::close(fd);
    if (!ok || std::rename(tmp.c_str(), file.c_str()) != 0)
        throw Error(STAND_E_IO, "mistgate: cannot write " + file.string());
}

void add_state_facts(json::object& f, const State& st) {
    json::array secret;
    if (!st.admin_url.empty()) secret.emplace_back(stand_panel_kit::path_of(st.admin_url));
    if (const std::string sub = stand_panel_kit::path_of(st.probe_url); sub.size() > 1)
        secret.emplace_back(sub.substr(0, sub.find('/', 1) + 1));
    if (!secret.empty()) f["secret_path_prefix"] = secret;
    if (st.setup_s) f["setup_s"] = *st.setup_s;
    f["owner_set_up"] = st.owner;
    if (!st.totp_secret.empty()) f["totp_step_s"] = st.totp_step;
    json::object ids;
    for (auto [k, v] : {std::pair{"profile", &st.profile_id}, std::pair{"node", &st.node_id},
                        std::pair{"inbound", &st.inbound_id}, std::pair{"group", &st.group_id}})
        if (!v->empty()) ids[k] = *v;
    if (!ids.empty()) f["ids"] = ids;
}

}  // namespace stand_mistgate
