#include "compat/panel_checks.hpp"
#include "compat/link_host.hpp"

#include "hysteria/hysteria_link.hpp"
#include "tunnel/auth_probe.hpp"
#include "tunnel/tunnel_spec.hpp"

#include "box/box.hpp"
#include "box/group_name.hpp"
#include "compat/box_sockets.hpp"
#include "compat/recording_part.hpp"
#include "compat/share_link.hpp"
#include "target/subscription_links.hpp"
#include "host/http/tcp_reach.hpp"
#include "host/http/url.hpp"
#include "host/plugin_host.hpp"
#include "isolation/interface_calls.hpp"
#include "target/readiness_poll.hpp"

#include <stand/stand.h>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <cstdio>
#include <map>
#include <set>
#include <thread>

namespace stand::compat {
namespace {

namespace json = boost::json;
using Plugin = std::shared_ptr<loader::LoadedPlugin>;
using Clock = std::chrono::steady_clock;

struct CheckFailure : std::runtime_error {
    using std::runtime_error::runtime_error;
};
// The check cannot look here and the target says why that is expected.
struct Skipped : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// scheme://host:port of a URL: a subscription URL's path holds the user's token.
std::string origin_of(const std::string& url) {
    try {
        return host::http::parse_url(url).origin();
    } catch (const std::exception&) {
        return "(an unparsable URL)";
    }
}

json::object merged(json::object base, const json::object& over) {
    for (const auto& [k, v] : over) base[k] = v;
    return base;
}

// One plugin instance against the target, inside the check's child.
class Rig {
public:
    Rig(const Plugin& plugin, const CompatOptions& options, const PanelTarget& target, const std::string& check)
        : plugin_(plugin), target_(target), recording_(options.record_parts_dir, check) {
        host::HostConfig config;
        config.run_dir = options.run_dir / check;
        config.log = [](int, const std::string&, const std::string&) {};
        recording_.enable(config);
        auto layout = box::detect_cgroup_layout();
        if (layout.backend) {
            box_ = std::make_unique<box::Box>(layout, "compat-" + box::new_run_id(), box::BoxPlan{.name = "measured"});
            config.boxes["measured"] = box_->dirs();
        }
        host_ = std::make_unique<host::PluginHost>(plugin->id, config);
        instance_ = create(target.config);
    }

    ~Rig() {
        if (instance_) recording_.note_facts([this] { return try_call("lifecycle.facts", {}); });
        for (auto* i : extra_) plugin_->entry.destroy(i);
        if (instance_) {
            if (started_) {
                call("lifecycle.stop", {}, true);
                call("lifecycle.wipe", {}, true);
            }
            plugin_->entry.destroy(instance_);
        }
        recording_.write(host_->http());
    }

    stand_instance* create(const json::object& config) {
        const std::string text = json::serialize(config);
        char message[1024] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        stand_instance* out = nullptr;
        stand_result r = plugin_->entry.create(host_->get(), text.data(), text.size(), &out, &err);
        if (r < 0 || out == nullptr)
            throw CheckFailure(std::string("create() with the target config failed: ") + stand_result_name(r) + ": " + message);
        if (instance_ != nullptr) extra_.push_back(out);
        return out;
    }

    // The plugin's reply as JSON (null when it wrote nothing); throws on an error result.
    json::value call(const std::string& method, const json::object& args = {}, bool quiet = false,
                     stand_instance* on = nullptr) {
        auto out = isolation::call_interface(*plugin_, on ? on : instance_, method, args);
        if (out.code < 0) {
            if (quiet) return nullptr;
            throw CheckFailure(method + " failed with " + stand_result_name(out.code) + ": " + out.error);
        }
        if (out.output.empty()) return nullptr;
        return json::parse(out.output);
    }

    isolation::CallOutcome try_call(const std::string& method, const json::object& args, stand_instance* on = nullptr) {
        return isolation::call_interface(*plugin_, on ? on : instance_, method, args);
    }

    double wait_ready(Clock::time_point origin) {
        auto readiness = call("lifecycle.readiness");
        if (!readiness.is_object()) throw CheckFailure("lifecycle.readiness returned no request");
        readiness_ = readiness.as_object();
        budget_end_ = origin + target_.ready_timeout;
        static const std::atomic<bool> never{false};
        try {
            return target::poll_until_ready(host_->http(), readiness.as_object(), origin, std::chrono::milliseconds(50),
                                              std::chrono::milliseconds(2000), origin + target_.ready_timeout, never,
                                              [this] { return host_->processes().ended(); })
                .seconds;
        } catch (const target::ReadinessTimeout& e) {
            throw CheckFailure(e.what());
        } catch (const target::ReadinessExited& e) {
            throw CheckFailure(e.what());
        } catch (const std::exception& e) {
            throw CheckFailure(std::string("not ready: ") + e.what());
        }
    }

    double start_ready() {
        call("lifecycle.install");
        started_at_ = Clock::now();
        call("lifecycle.start");
        started_ = true;
        return wait_ready(started_at_);
    }

    double since_start() const { return std::chrono::duration<double>(Clock::now() - started_at_).count(); }

    struct User {
        std::string name, id;
        json::object subscription;
        std::string tunnel_auth;  // "" when create_user returned none
    };

    User create_user(const std::string& name) {
        auto v = call("panel.create_user", {{"name", name}});
        if (const auto* o = v.if_object(); o && o->contains("tunnel_auth") && !o->at("tunnel_auth").is_string())
            throw CheckFailure("panel.create_user(" + name + "): tunnel_auth is not a string");
        const auto* o = v.if_object();
        if (o == nullptr || !o->contains("id") || !o->contains("subscription") || !o->at("subscription").is_object())
            throw CheckFailure("panel.create_user(" + name + ") did not return {id, subscription}: " + json::serialize(v));
        const auto& sub = o->at("subscription").as_object();
        if (!sub.contains("url") || !sub.at("url").is_string() ||
            std::string(sub.at("url").as_string()).find("://") == std::string::npos)
            throw CheckFailure("panel.create_user(" + name + "): subscription.url is not absolute: " + json::serialize(sub));
        std::string auth;
        if (auto* a = o->if_contains("tunnel_auth")) auth = std::string(a->as_string());
        recording_.note_user(name, std::string(o->at("id").as_string()), std::string(sub.at("url").as_string()));
        return {name, std::string(o->at("id").as_string()), sub, auth};
    }

    struct Fetch {
        int status = 0;
        std::string body;
    };

    // A subscription server may come up after the readiness answer: every
    // check but start-ready (which judges exactly that) waits for it within
    // the readiness budget of the last start.
    // A refused connection or a 503 is "not serving yet".
    Fetch fetch(const json::object& subscription) {
        while (true) {
            try {
                auto f = fetch_once(subscription);
                if (f.status != 503 || Clock::now() >= budget_end_) return f;
            } catch (const CheckFailure&) {
                if (Clock::now() >= budget_end_) throw;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
    }

    Fetch fetch_once(const json::object& subscription) {
        if (session_ == 0) session_ = host_->http().open_session({{"cookies", false}, {"timeout_ms", 10000}});
        json::object request{{"method", subscription.contains("method") ? subscription.at("method") : json::value("GET")},
                             {"url", subscription.at("url")},
                             {"label", "compat subscription"}};
        if (auto* h = subscription.if_contains("headers")) request["headers"] = *h;
        try {
            auto r = host_->http().request(session_, request);
            Fetch f;
            f.status = static_cast<int>(r.at("status").to_number<std::int64_t>());
            if (auto* b = r.if_contains("body"); b && b->is_string()) f.body = std::string(b->as_string());
            return f;
        } catch (const std::exception& e) {
            throw CheckFailure("subscription at " + origin_of(std::string(subscription.at("url").as_string())) + ": " +
                               e.what());
        }
    }

    // The user's links of the schemes stand checks, each parsed (links of
    // other schemes are added to `unchecked`, per scheme, when given); throws
    // when the subscription does not answer 200 with at least one such link.
    std::vector<ShareLink> expect_links(const User& u, std::map<std::string, std::size_t>* unchecked = nullptr) {
        auto f = fetch(u.subscription);
        const std::string where = "subscription of " + u.name;
        if (f.status != 200) throw CheckFailure(where + " answered " + std::to_string(f.status));
        if (f.body.empty()) throw CheckFailure(where + " has an empty body");
        auto links = target::parse_subscription_body(f.body);
        if (!links.problem.empty()) throw CheckFailure(where + ": " + links.problem);
        if (unchecked)
            for (const auto& [scheme, n] : links.unchecked) (*unchecked)[scheme] += n;
        std::vector<ShareLink> out;
        for (std::size_t i = 0; i < links.links.size(); ++i) {
            auto parsed = parse_share_link(links.links[i]);
            if (!parsed.link)
                throw CheckFailure(where + ": link " + std::to_string(i + 1) + " (" +
                                   links.links[i].substr(0, links.links[i].find("://")) + "://): " + parsed.problem);
            out.push_back(*parsed.link);
        }
        return out;
    }

    const json::object& readiness() const { return readiness_; }
    Clock::time_point budget_end() const { return budget_end_; }
    bool allows_remote() const { return host_->http().allows_remote_targets(); }
    const box::Box* measured_box() const { return box_.get(); }

    // 429 answers the host waited out for this plugin so far.
    std::string waits_text() const {
        int waits = 0;
        for (const auto& c : host_->http().calls()) waits += c.retry_waits;
        return std::to_string(waits) + " 429 answer(s) waited out";
    }

    stand_instance* instance() const { return instance_; }

private:
    Plugin plugin_;
    const PanelTarget& target_;
    RecordingPart recording_;
    std::unique_ptr<box::Box> box_;
    std::unique_ptr<host::PluginHost> host_;
    stand_instance* instance_ = nullptr;
    std::vector<stand_instance*> extra_;
    std::uint64_t session_ = 0;
    bool started_ = false;
    json::object readiness_;
    Clock::time_point budget_end_ = Clock::now();
    Clock::time_point started_at_ = Clock::now();
};

child::ChildResult pass(std::string m) { return {true, false, std::move(m), 0}; }
child::ChildResult fail(std::string m) { return {false, false, std::move(m), 0}; }

template <class Body>
child::ChildResult guarded(Body body) {
    try {
        return pass(body());
    } catch (const Skipped& e) {
        return {false, true, std::string("skipped: ") + e.what(), 0};
    } catch (const CheckFailure& e) {
        return fail(e.what());
    } catch (const std::exception& e) {
        return fail(std::string("unexpected: ") + e.what());
    }
}

// Starts and bootstraps the panel, then creates `n` users "compat1".."compatN".
std::vector<Rig::User> started_with_users(Rig& rig, int n, const std::string& prefix = "compat") {
    rig.start_ready();
    rig.call("panel.bootstrap");
    std::vector<Rig::User> users;
    for (int i = 1; i <= n; ++i) users.push_back(rig.create_user(prefix + std::to_string(i)));
    return users;
}

std::string secs(double s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f s", s);
    return buf;
}

std::string host_port(const std::string& host, int port) {
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

std::string endpoint_text(const ShareLink& l) { return l.scheme + " " + host_port(l.host, l.port); }

std::string joined(const std::vector<std::string>& items, const std::string& sep = ", ") {
    std::string out;
    for (const auto& i : items) out += (out.empty() ? "" : sep) + i;
    return out;
}

// The addresses the panel was told to serve on: the hosts of the readiness
// request and its "also" checks, of the subscription URLs and of the links.
// Names are looked up in the hosts file only (link_host.hpp).
std::set<std::string> configured_addresses(const std::vector<std::string>& hosts) {
    std::set<std::string> out;
    for (const auto& h : hosts)
        for (auto& a : place_of(h).addresses) out.insert(std::move(a));
    return out;
}

// A user's links by where their endpoints are: `here` (on this machine's
// loopback, the ones a check can connect to), `elsewhere` and `nowhere` (no
// endpoint at all), each named with why. Links with an endpoint_problem are
// the caller's to refuse.
struct PlacedLinks {
    std::map<std::string, ShareLink> here;
    std::map<std::string, std::string> elsewhere;  // endpoint text -> why
    std::map<std::string, std::string> nowhere;    // endpoint text -> why
};

void place_links(const std::vector<ShareLink>& links, PlacedLinks& out) {
    for (const auto& l : links) {
        if (!endpoint_problem(l).empty()) continue;
        auto where = place_of(l.host);
        if (where.place == LinkPlace::here) out.here.emplace(endpoint_text(l), l);
        else (where.place == LinkPlace::elsewhere ? out.elsewhere : out.nowhere).emplace(endpoint_text(l), where.why);
    }
}

// "vless none:443, vless yahoo.com:443 (no address and not in /etc/hosts; ...)": the endpoints, by why.
std::string named(const std::map<std::string, std::string>& endpoints) {
    std::map<std::string, std::vector<std::string>> by_why;
    for (const auto& [text, why] : endpoints) by_why[why].push_back(text);
    std::string out;
    for (const auto& [why, texts] : by_why) out += (out.empty() ? "" : "; ") + joined(texts) + " (" + why + ")";
    return out;
}

std::vector<std::string> readiness_hosts(const json::object& readiness) {
    std::vector<std::string> hosts;
    auto add_url = [&](const json::object& o) {
        if (auto* u = o.if_contains("url"); u && u->is_string()) {
            try {
                hosts.push_back(host::http::parse_url(u->as_string()).host);
            } catch (const std::exception&) {
            }
        }
        if (auto* t = o.if_contains("tcp"); t && t->is_string()) {
            auto parsed = parse_share_link("tcp://" + std::string(t->as_string()));
            if (parsed.link) hosts.push_back(parsed.link->host);
        }
    };
    add_url(readiness);
    if (auto* also = readiness.if_contains("also"); also && also->is_array())
        for (const auto& item : also->as_array())
            if (item.is_object()) add_url(item.as_object());
    return hosts;
}

// Each check below runs on a fresh Rig in the check's child; it returns the
// pass message or throws CheckFailure (Skipped when the target says why).

std::string start_ready(Rig& rig, const PanelTarget&) {
    const double ready = rig.start_ready();
    rig.call("panel.bootstrap");
    auto user = rig.create_user("compat-ready");
    Rig::Fetch f;
    try {
        f = rig.fetch_once(user.subscription);
    } catch (const CheckFailure& e) {
        throw CheckFailure("readiness answered after " + secs(ready) + ", but " + secs(rig.since_start()) +
                           " after the start, past bootstrap and one user, the " + e.what() +
                           ": readiness must cover the subscription server (lifecycle.h \"also\")");
    }
    if (f.status != 200)
        throw CheckFailure("readiness answered after " + secs(ready) + ", but the first user's subscription "
                           "answered " + std::to_string(f.status) + " " + secs(rig.since_start()) +
                           " after the start, past bootstrap and one user: readiness must cover the "
                           "subscription server (lifecycle.h \"also\")");
    return "ready after " + secs(ready) + "; the first user's subscription answered 200 " + secs(rig.since_start()) +
           " after the start";
}

std::string bootstrap_idempotent(Rig& rig, const PanelTarget& t) {
    rig.start_ready();
    rig.call("panel.bootstrap");
    rig.call("panel.bootstrap");
    auto* second = rig.create(t.config);
    rig.call("panel.bootstrap", {}, false, second);
    rig.call("panel.admin_call", {}, false, second);
    return std::string("three bootstraps and an admin call succeeded; ") + rig.waits_text();
}

std::string create_users_unique(Rig& rig, const PanelTarget& t) {
    auto users = started_with_users(rig, t.users);
    std::set<std::string> urls, ids;
    for (const auto& u : users) {
        if (!urls.insert(std::string(u.subscription.at("url").as_string())).second)
            throw CheckFailure("two users share the subscription URL " + std::string(u.subscription.at("url").as_string()));
        if (!ids.insert(u.id).second) throw CheckFailure("two users share the id " + u.id);
    }
    return std::to_string(users.size()) + " users, unique ids and URLs; " + rig.waits_text();
}

// Throws unless every link names a real endpoint or none at all (a host
// that is nowhere, placed into `placed`), at least one names an endpoint,
// and, when create_user returned tunnel_auth, one of them carries it.
void expect_real_endpoints_with_auth(const Rig::User& u, const std::vector<ShareLink>& parsed, PlacedLinks& placed) {
    for (std::size_t i = 0; i < parsed.size(); ++i)
        if (auto problem = endpoint_problem(parsed[i]); !problem.empty())
            throw CheckFailure("subscription of " + u.name + ": link " + std::to_string(i + 1) + " (" +
                               endpoint_text(parsed[i]) + ") is not a real endpoint: " + problem);
    PlacedLinks mine;
    place_links(parsed, mine);
    if (mine.here.empty() && mine.elsewhere.empty())
        throw CheckFailure("subscription of " + u.name + ": none of its " + std::to_string(parsed.size()) +
                           " link(s) names an endpoint: " + named(mine.nowhere));
    placed.here.merge(mine.here);
    placed.elsewhere.merge(mine.elsewhere);
    placed.nowhere.merge(mine.nowhere);
    if (u.tunnel_auth.empty()) return;
    bool carried = false;
    for (const auto& l : parsed) carried = carried || carries_credential(l, u.tunnel_auth);
    if (!carried)
        throw CheckFailure("subscription of " + u.name + ": none of its " + std::to_string(parsed.size()) +
                           " link(s) carries the tunnel_auth create_user returned (looked in the "
                           "userinfo, ss's password, vmess's id, password/auth parameters)");
}

std::string subscriptions_decode(Rig& rig, const PanelTarget& t) {
    auto users = started_with_users(rig, t.users);
    std::size_t links = 0, with_auth = 0;
    PlacedLinks placed;
    std::map<std::string, std::size_t> unchecked;
    for (const auto& u : users) {
        auto parsed = rig.expect_links(u, &unchecked);
        links += parsed.size();
        expect_real_endpoints_with_auth(u, parsed, placed);
        if (!u.tunnel_auth.empty()) ++with_auth;
    }
    // subscription_request describes the same fetch for a user id
    auto again = rig.call("panel.subscription_request", {{"id", users.front().id}});
    if (!again.is_object() || again.as_object().at("url") != users.front().subscription.at("url"))
        throw CheckFailure("subscription_request(" + users.front().id + ") differs from create_user's URL");
    std::vector<std::string> list;
    for (const auto& [text, l] : placed.here) list.push_back(text);
    for (const auto& [text, why] : placed.elsewhere) list.push_back(text);
    return std::to_string(users.size()) + " subscriptions decoded to " + std::to_string(links) + " links naming " +
           joined(list) + (placed.nowhere.empty() ? "" : "; not an endpoint: " + named(placed.nowhere)) + "; " +
           (with_auth == 0 ? std::string("create_user returned no tunnel_auth, credentials not checked")
                           : "tunnel_auth carried for " + std::to_string(with_auth) + " user(s)") +
           (unchecked.empty() ? "" : "; not checked: " + target::unchecked_text(unchecked)) + "; " + rig.waits_text();
}

std::string delete_user_revokes(Rig& rig, const PanelTarget&) {
    auto users = started_with_users(rig, 2, "compat-del");
    rig.expect_links(users[0]);
    rig.call("panel.delete_user", {{"id", users[0].id}});
    // Panels may cache a link for a few seconds (Mistgate: 10 s): allow 15 s.
    auto until = Clock::now() + std::chrono::seconds(15);
    int status = 200;
    while ((status = rig.fetch(users[0].subscription).status) == 200 && Clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
    if (status == 200) throw CheckFailure("the deleted user's subscription still answers 200 after 15 s");
    rig.expect_links(users[1]);
    return "deleted user's subscription answers " + std::to_string(status) + "; the other still works";
}

std::string duplicate_name_error(Rig& rig, const PanelTarget&) {
    rig.start_ready();
    rig.call("panel.bootstrap");
    rig.create_user("compat-dup");
    auto again = rig.try_call("panel.create_user", {{"name", "compat-dup"}});
    if (again.code >= 0) throw CheckFailure("a second create_user(\"compat-dup\") succeeded");
    if (again.error.empty()) throw CheckFailure("the duplicate failed without a message");
    return std::string(stand_result_name(again.code)) + ": " + again.error;
}

std::string wrong_credentials_error(Rig& rig, const PanelTarget& t) {
    if (t.wrong_credentials.empty())
        throw CheckFailure(t.file + ": $.wrong_credentials is needed for this check: keys merged over $.config that "
                           "must be refused (e.g. {\"password\": \"nope\"}, or a wrong key such as "
                           "{\"api_key\": \"wrong\"} where the admin API takes one)");
    rig.start_ready();
    rig.call("panel.bootstrap");
    auto* wrong = rig.create(merged(t.config, t.wrong_credentials));
    auto r = rig.try_call("panel.bootstrap", {}, wrong);
    if (r.code >= 0) r = rig.try_call("panel.admin_call", {}, wrong);
    if (r.code >= 0) throw CheckFailure("bootstrap and an admin call with the wrong credentials succeeded");
    if (r.error.empty()) throw CheckFailure("refused without a message");
    return std::string(stand_result_name(r.code)) + ": " + r.error;
}

// Retries `problem_now` (a failure text, "" once it works) until it works or
// the readiness budget ends; the last problem.
template <class Probe>
std::string problem_within_budget(const Rig& rig, std::chrono::milliseconds pause, Probe problem_now) {
    std::string problem;
    while (!(problem = problem_now()).empty() && Clock::now() < rig.budget_end()) std::this_thread::sleep_for(pause);
    return problem;
}

// The endpoints of the restarted core that serve again; UDP ones other than
// Hysteria 2 (and Hysteria 2 servers elsewhere) go to `udp`, not checked.
std::vector<std::string> served_after_restart(const Rig& rig, const std::map<std::string, ShareLink>& endpoints,
                                              std::vector<std::string>& udp) {
    std::vector<std::string> served;
    for (const auto& [text, l] : endpoints) {
        const bool hysteria2 = l.scheme == "hysteria2" || l.scheme == "hy2";
        if (l.udp && !hysteria2) {
            udp.push_back(text);
            continue;
        }
        if (hysteria2) {
            // A UDP endpoint answers nothing to a bare packet: authenticate as the user.
            std::string problem;
            try {
                const auto link = hysteria::parse_hysteria_link(l.text);
                problem = problem_within_budget(rig, std::chrono::milliseconds(200), [&] {
                    return tunnel::hysteria_auth_problem(link, rig.allows_remote(), std::chrono::seconds(2));
                });
            } catch (const tunnel::RemoteServerError&) {
                udp.push_back(text + " (not on this machine)");
                continue;
            } catch (const std::exception& e) {
                problem = e.what();
            }
            if (!problem.empty())
                throw CheckFailure("after the restart the Hysteria 2 endpoint " + text +
                                   " does not authenticate the user (" + problem + "): the core does not serve again");
            served.push_back(text + " (Hysteria 2 auth)");
            continue;
        }
        const std::string problem = problem_within_budget(rig, std::chrono::milliseconds(100), [&] {
            return host::http::tcp_connect_problem(l.host, static_cast<std::uint16_t>(l.port), rig.allows_remote(),
                                                   std::chrono::seconds(2));
        });
        if (!problem.empty())
            throw CheckFailure("after the restart the link endpoint " + text + " accepts no connection (" + problem +
                               "): the core does not serve again");
        served.push_back(text);
    }
    return served;
}

std::string auth_problem(const Rig& rig, const hysteria::HysteriaLink& link) {
    return tunnel::hysteria_auth_problem(link, rig.allows_remote(), std::chrono::seconds(2));
}

// The user's first Hysteria 2 link, or none.
std::optional<hysteria::HysteriaLink> hysteria2_link(const std::vector<ShareLink>& links) {
    for (const auto& l : links)
        if (l.scheme == "hysteria2" || l.scheme == "hy2") return hysteria::parse_hysteria_link(l.text);
    return std::nullopt;
}

// What a revocation check cannot try on this target (no Hysteria 2 link, a
// core elsewhere, an optional call the adapter lacks): the check passes
// saying "not checked" and why, as restart-keeps-users does for links it
// cannot reach, so a panel without Hysteria 2 still passes the suite.
struct NotApplicable : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Two users authenticate over their Hysteria 2 links; `revoke` (a panel
// call on the first) must get a new connection with its credential refused
// within revoke_within_s, the other's still served. Returns the first
// user's link and how long the refusal took, for a check that goes on.
struct Revoked {
    std::string id;
    hysteria::HysteriaLink link;
    std::string text;
};

Revoked revoke_stops_tunnel(Rig& rig, const PanelTarget& t, const std::string& prefix, const std::string& call,
                            const boost::json::object& args_but_id) {
    if (!t.unserved_links.empty()) throw NotApplicable("the links are not served here: " + t.unserved_links);
    auto users = started_with_users(rig, 2, prefix);
    std::vector<hysteria::HysteriaLink> links;
    for (const auto& u : users) {
        auto link = hysteria2_link(rig.expect_links(u));
        if (!link) throw NotApplicable("no Hysteria 2 link (the panel's inbound is another protocol)");
        if (auto where = place_of(link->host); where.place == LinkPlace::nowhere)
            throw NotApplicable("the Hysteria 2 link names no endpoint: " + link->host + ": " + where.why);
        else if (where.place == LinkPlace::elsewhere)
            throw NotApplicable("the Hysteria 2 server is not on this machine: " + link->host + ": " + where.why);
        links.push_back(*link);
    }
    for (std::size_t i = 0; i < links.size(); ++i) {
        std::string problem;
        try {
            problem = problem_within_budget(rig, std::chrono::milliseconds(200), [&] { return auth_problem(rig, links[i]); });
        } catch (const tunnel::RemoteServerError& e) {
            throw NotApplicable("the Hysteria 2 server is not on this machine: " + e.reason());
        }
        if (!problem.empty())
            throw CheckFailure("user " + users[i].name + " does not authenticate before " + call + ": " + problem);
    }
    boost::json::object args = args_but_id;
    args["id"] = users[0].id;
    if (auto r = rig.try_call(call, args); r.code == STAND_E_UNSUPPORTED)
        throw NotApplicable(call + " is not supported: " + r.error);
    else if (r.code < 0)
        throw CheckFailure(call + "(" + users[0].id + ") failed: " + std::string(stand_result_name(r.code)) + ": " + r.error);
    const auto done = Clock::now();
    std::string problem;
    // No answer is not a refusal (a restarting core): only the server's refusal counts.
    while ((problem = auth_problem(rig, links[0])).rfind("authentication refused", 0) != 0) {
        if (Clock::now() - done > t.revoke_within)
            throw CheckFailure("after " + call + " the user's Hysteria 2 credential still " +
                               (problem.empty() ? std::string("authenticates") : "is not refused (" + problem + ")") +
                               " " + secs(std::chrono::duration<double>(Clock::now() - done).count()) +
                               " later (revoke_within_s " + std::to_string(t.revoke_within.count()) + ")");
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    const double refused_after = std::chrono::duration<double>(Clock::now() - done).count();
    if (auto other = auth_problem(rig, links[1]); !other.empty())
        throw CheckFailure("after " + call + " of " + users[0].name + ", the other user " + users[1].name +
                           " no longer authenticates: " + other);
    return {users[0].id, links[0], "a new connection with its credential is refused " + secs(refused_after) + " after " + call +
                          " (bound " + std::to_string(t.revoke_within.count()) + " s: " + problem +
                          "); the other user still authenticates"};
}

std::string delete_user_stops_tunnel(Rig& rig, const PanelTarget& t) {
    try {
        return "deleted user: " + revoke_stops_tunnel(rig, t, "compat-revoke", "panel.delete_user", {}).text;
    } catch (const NotApplicable& e) {
        return std::string("not checked: ") + e.what();
    }
}

std::string disable_user_stops_tunnel(Rig& rig, const PanelTarget& t) {
    std::optional<Revoked> tried;
    try {
        tried = revoke_stops_tunnel(rig, t, "compat-disable", "panel.set_user_enabled", {{"enabled", false}});
    } catch (const NotApplicable& e) {
        return std::string("not checked: ") + e.what();
    }
    const Revoked& revoked = *tried;
    rig.call("panel.set_user_enabled", {{"id", revoked.id}, {"enabled", true}});
    const auto enabled = Clock::now();
    std::string problem;
    while (!(problem = auth_problem(rig, revoked.link)).empty()) {
        if (Clock::now() - enabled > t.revoke_within)
            throw CheckFailure("enabled again, the user still does not authenticate after " +
                               std::to_string(t.revoke_within.count()) + " s: " + problem);
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return "disabled user: " + revoked.text + "; enabled again, served again after " +
           secs(std::chrono::duration<double>(Clock::now() - enabled).count());
}

std::string restart_keeps_users(Rig& rig, const PanelTarget& t) {
    auto users = started_with_users(rig, t.users);
    auto t0 = Clock::now();
    rig.call("lifecycle.restart");
    double ready = rig.wait_ready(t0);
    rig.call("panel.admin_call");
    PlacedLinks placed;
    for (const auto& u : users) place_links(rig.expect_links(u), placed);
    std::vector<std::string> served, udp;
    if (t.unserved_links.empty()) served = served_after_restart(rig, placed.here, udp);
    rig.create_user("compat-after-restart");
    std::string core = !t.unserved_links.empty() ? "link endpoints not checked: " + t.unserved_links
                       : served.empty()           ? std::string("no TCP or Hysteria 2 link endpoint to check")
                                                  : "link endpoints accept connections again: " + joined(served);
    if (!udp.empty()) core += "; not checked (UDP): " + joined(udp);
    if (t.unserved_links.empty() && !placed.elsewhere.empty())
        core += "; not checked (not on this machine): " + named(placed.elsewhere);
    if (!placed.nowhere.empty()) core += "; not an endpoint: " + named(placed.nowhere);
    return std::string("ready again after ") + secs(ready) + ", " + std::to_string(users.size()) +
           " users still served, a new user created; " + core + "; " + rig.waits_text();
}

std::string admin_burst_429_waited(Rig& rig, const PanelTarget&) {
    rig.start_ready();
    rig.call("panel.bootstrap");
    for (int i = 0; i < 250; ++i) rig.call("panel.admin_call");
    return "250 admin calls succeeded; " + rig.waits_text();
}

// The box's sockets sorted: in a container's own network namespace, on a
// wildcard or unconfigured address (with why), or fine.
struct SocketVerdicts {
    std::vector<std::string> offending, own_network, fine;
};

SocketVerdicts judge_sockets(const BoxSockets& found, const std::set<std::string>& allowed) {
    SocketVerdicts out;
    for (const auto& sock : found.sockets) {
        if (sock.own_network) {
            out.own_network.push_back(sock.describe());
        } else if (sock.address == "0.0.0.0" || sock.address == "::") {
            out.offending.push_back(sock.describe() + " (all interfaces)");
        } else if (!allowed.count(sock.address)) {
            out.offending.push_back(sock.describe() + " (not a configured address)");
        } else {
            out.fine.push_back(sock.describe());
        }
    }
    return out;
}

std::string listens_only_configured(Rig& rig, const PanelTarget& t) {
    auto user = started_with_users(rig, 1, "compat-listen").front();
    auto links = rig.expect_links(user);
    auto cannot = [&](const std::string& why) -> std::string {
        if (!t.unchecked_listeners.empty()) throw Skipped(why + "; the target says: " + t.unchecked_listeners);
        throw CheckFailure(why + " (set $.unchecked_listeners in " + t.file + " to the reason when that is expected)");
    };
    if (rig.measured_box() == nullptr)
        return cannot("no measured box: cgroups are not usable here, so the panel's processes cannot be found");
    auto found = box_sockets(rig.measured_box()->dirs());
    if (found.processes == 0)
        return cannot("the measured box holds no process (a docker-mode panel whose containers do not take "
                      "the box as cgroup parent?)");
    std::vector<std::string> hosts = readiness_hosts(rig.readiness());
    hosts.push_back(host::http::parse_url(std::string(user.subscription.at("url").as_string())).host);
    for (const auto& l : links)
        if (endpoint_problem(l).empty()) hosts.push_back(l.host);
    const auto allowed = configured_addresses(hosts);
    const auto [offending, own_network, fine] = judge_sockets(found, allowed);
    const std::vector<std::string> allowed_list(allowed.begin(), allowed.end());
    if (!offending.empty())
        throw CheckFailure("listening beyond the configured address(es) " + joined(allowed_list) + ": " +
                           joined(offending, "; "));
    if (fine.empty() && !own_network.empty())
        return cannot("every socket of the box is in a container's own network namespace (" +
                      joined(own_network, "; ") + "): its published ports decide what is reachable");
    if (fine.empty()) throw CheckFailure("no process of the measured box listens on any socket");
    std::string out = std::to_string(fine.size()) + " socket(s) on " + joined(allowed_list) + ": " + joined(fine, "; ");
    if (!own_network.empty()) out += "; not judged (own network namespace): " + joined(own_network, "; ");
    return out;
}

}  // namespace

std::vector<Check> panel_checks(const Plugin& p, const CompatOptions& o, const PanelTarget& t) {
    const auto timeout = std::chrono::duration_cast<std::chrono::milliseconds>(t.check_timeout);
    auto check = [&](const char* id, const char* description, std::string (*body)(Rig&, const PanelTarget&)) {
        return Check{id, description, true,
                     [p, o, t, id, body] {
                         return guarded([&] {
                             Rig rig(p, o, t, id);
                             return body(rig, t);
                         });
                     },
                     timeout};
    };
    return {
        check("panel.start-ready",
              "install and start the panel; readiness answers within ready_timeout_s, and the subscription server "
              "answers at once after it: after bootstrap and one user, one fetch of that user's subscription (no "
              "retry) must answer 200, so a panel whose subscription server starts after its readiness answer fails",
              start_ready),
        check("panel.bootstrap-idempotent", "bootstrap twice, and again from a second instance, then an admin call",
              bootstrap_idempotent),
        check("panel.create-users-unique", "N users, each with its own absolute subscription URL", create_users_unique),
        check("panel.subscriptions-decode",
              "every subscription answers 200 with at least one link of a scheme stand checks; those parse, each "
              "naming a real endpoint (no wildcard address, no port 0, no placeholder host) or none at all (a "
              "host that is no address and not in /etc/hosts, such as \"none\": named \"not an endpoint\"), at "
              "least one an endpoint, and where create_user returns tunnel_auth one of them carries it; comment "
              "lines are skipped, links of other schemes counted and named, not checked (docs/subscriptions.md)",
              subscriptions_decode),
        check("panel.delete-user-revokes", "a deleted user's subscription stops working, the others keep working",
              delete_user_revokes),
        check("panel.delete-user-stops-tunnel",
              "two users authenticate over their Hysteria 2 links; after delete_user of the first, a new connection "
              "with its credential is refused (the server's refusal, not silence) within revoke_within_s, and the "
              "other user still authenticates; \"not checked\", with why, where the links are not Hysteria 2 or not served here",
              delete_user_stops_tunnel),
        check("panel.disable-user-stops-tunnel",
              "as panel.delete-user-stops-tunnel with set_user_enabled(false) (ABI 1.3), then the user enabled again "
              "authenticates again within revoke_within_s; \"not checked\" where the adapter has no user switch",
              disable_user_stops_tunnel),
        check("panel.duplicate-name-error",
              "creating a user whose name exists is an error with a message: names are unique per panel, also "
              "where the panel allows duplicates (the adapter refuses them, panel.h)",
              duplicate_name_error),
        check("panel.wrong-credentials-error", "bootstrap with wrong credentials fails with a message",
              wrong_credentials_error),
        check("panel.restart-keeps-users",
              "after a restart the panel is ready in time, the users still work, and the core serves again: every "
              "TCP link endpoint accepts a connection and every Hysteria 2 endpoint authenticates the user within "
              "the readiness budget (other UDP endpoints, endpoints not on this machine and links that name no "
              "endpoint are named, not checked)",
              restart_keeps_users),
        check("panel.admin-burst-429-waited", "250 admin calls in a row all succeed; 429s are waited out and counted",
              admin_burst_429_waited),
        check("panel.listens-only-configured",
              "after bootstrap and one user, no process of the measured box (panel, subscription server, core) "
              "listens on a wildcard address (0.0.0.0, ::) or on an address other than the hosts of the readiness "
              "request, the subscription URL and the links; sockets in a container's own network namespace are "
              "named, not judged",
              listens_only_configured),
    };
}

}  // namespace stand::compat
