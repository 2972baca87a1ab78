#include "compat/panel_checks.hpp"

#include "box/box.hpp"
#include "box/group_name.hpp"
#include "compat/recording_part.hpp"
#include "compat/subscription_links.hpp"
#include "host/plugin_host.hpp"
#include "isolation/interface_calls.hpp"
#include "scenario/readiness_poll.hpp"

#include <stand/stand.h>

#include <cstdio>
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
        static const std::atomic<bool> never{false};
        try {
            return scenario::poll_until_ready(host_->http(), readiness.as_object(), origin, std::chrono::milliseconds(50),
                                              std::chrono::milliseconds(2000), origin + target_.ready_timeout, never)
                .seconds;
        } catch (const std::exception& e) {
            throw CheckFailure(std::string("not ready: ") + e.what());
        }
    }

    double start_ready() {
        call("lifecycle.install");
        auto t0 = Clock::now();
        call("lifecycle.start");
        started_ = true;
        return wait_ready(t0);
    }

    struct User {
        std::string name, id;
        json::object subscription;
    };

    User create_user(const std::string& name) {
        auto v = call("panel.create_user", {{"name", name}});
        const auto* o = v.if_object();
        if (o == nullptr || !o->contains("id") || !o->contains("subscription") || !o->at("subscription").is_object())
            throw CheckFailure("panel.create_user(" + name + ") did not return {id, subscription}: " + json::serialize(v));
        const auto& sub = o->at("subscription").as_object();
        if (!sub.contains("url") || !sub.at("url").is_string() ||
            std::string(sub.at("url").as_string()).find("://") == std::string::npos)
            throw CheckFailure("panel.create_user(" + name + "): subscription.url is not absolute: " + json::serialize(sub));
        recording_.note_user(name, std::string(o->at("id").as_string()), std::string(sub.at("url").as_string()));
        return {name, std::string(o->at("id").as_string()), sub};
    }

    struct Fetch {
        int status = 0;
        std::string body;
    };

    Fetch fetch(const json::object& subscription) {
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
            throw CheckFailure("subscription " + std::string(subscription.at("url").as_string()) + ": " + e.what());
        }
    }

    void expect_links(const User& u) {
        auto f = fetch(u.subscription);
        const std::string url(u.subscription.at("url").as_string());
        if (f.status != 200)
            throw CheckFailure("subscription of " + u.name + " (" + url + ") answered " + std::to_string(f.status));
        if (f.body.empty()) throw CheckFailure("subscription of " + u.name + " (" + url + ") has an empty body");
        auto links = parse_subscription_body(f.body);
        if (!links.problem.empty())
            throw CheckFailure("subscription of " + u.name + " (" + url + "): " + links.problem);
    }

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
};

ChildResult pass(std::string m) { return {true, false, std::move(m), 0}; }
ChildResult fail(std::string m) { return {false, false, std::move(m), 0}; }

template <class Body>
ChildResult guarded(Body body) {
    try {
        return pass(body());
    } catch (const CheckFailure& e) {
        return fail(e.what());
    } catch (const std::exception& e) {
        return fail(std::string("unexpected: ") + e.what());
    }
}

std::vector<Rig::User> create_users(Rig& rig, int n, const std::string& prefix) {
    std::vector<Rig::User> users;
    for (int i = 1; i <= n; ++i) users.push_back(rig.create_user(prefix + std::to_string(i)));
    return users;
}

std::string secs(double s) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f s", s);
    return buf;
}

}  // namespace

std::vector<Check> panel_checks(const Plugin& p, const CompatOptions& o, const PanelTarget& t) {
    std::vector<Check> checks;
    auto add = [&](const char* id, const char* description, std::function<std::string(Rig&)> body) {
        checks.push_back({id, description, true, [p, o, t, id, body] {
                              return guarded([&] {
                                  Rig rig(p, o, t, id);
                                  return body(rig);
                              });
                          }});
    };

    add("panel.start-ready", "install and start the panel; readiness answers within ready_timeout_s", [](Rig& rig) {
        return "ready after " + secs(rig.start_ready());
    });

    add("panel.bootstrap-idempotent", "bootstrap twice, and again from a second instance, then an admin call",
        [t](Rig& rig) {
            rig.start_ready();
            rig.call("panel.bootstrap");
            rig.call("panel.bootstrap");
            auto* second = rig.create(t.config);
            rig.call("panel.bootstrap", {}, false, second);
            rig.call("panel.admin_call", {}, false, second);
            return std::string("three bootstraps and an admin call succeeded; ") + rig.waits_text();
        });

    add("panel.create-users-unique", "N users, each with its own absolute subscription URL", [t](Rig& rig) {
        rig.start_ready();
        rig.call("panel.bootstrap");
        auto users = create_users(rig, t.users, "compat");
        std::set<std::string> urls, ids;
        for (const auto& u : users) {
            if (!urls.insert(std::string(u.subscription.at("url").as_string())).second)
                throw CheckFailure("two users share the subscription URL " + std::string(u.subscription.at("url").as_string()));
            if (!ids.insert(u.id).second) throw CheckFailure("two users share the id " + u.id);
        }
        return std::to_string(users.size()) + " users, unique ids and URLs; " + rig.waits_text();
    });

    add("panel.subscriptions-decode", "every subscription answers 200 with links whose scheme parses", [t](Rig& rig) {
        rig.start_ready();
        rig.call("panel.bootstrap");
        auto users = create_users(rig, t.users, "compat");
        for (const auto& u : users) rig.expect_links(u);
        // subscription_request describes the same fetch for a user id
        auto again = rig.call("panel.subscription_request", {{"id", users.front().id}});
        if (!again.is_object() || again.as_object().at("url") != users.front().subscription.at("url"))
            throw CheckFailure("subscription_request(" + users.front().id + ") differs from create_user's: " +
                               json::serialize(again));
        return std::to_string(users.size()) + " subscriptions decoded to links; " + rig.waits_text();
    });

    add("panel.delete-user-revokes", "a deleted user's subscription stops working, the others keep working",
        [](Rig& rig) {
            rig.start_ready();
            rig.call("panel.bootstrap");
            auto users = create_users(rig, 2, "compat-del");
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
        });

    add("panel.duplicate-name-error", "creating a user whose name exists is an error with a message", [](Rig& rig) {
        rig.start_ready();
        rig.call("panel.bootstrap");
        rig.create_user("compat-dup");
        auto again = rig.try_call("panel.create_user", {{"name", "compat-dup"}});
        if (again.code >= 0) throw CheckFailure("a second create_user(\"compat-dup\") succeeded");
        if (again.error.empty()) throw CheckFailure("the duplicate failed without a message");
        return std::string(stand_result_name(again.code)) + ": " + again.error;
    });

    add("panel.wrong-credentials-error", "bootstrap with wrong credentials fails with a message", [t](Rig& rig) {
        if (t.wrong_credentials.empty())
            throw CheckFailure(t.file + ": $.wrong_credentials is needed for this check (e.g. {\"password\": \"nope\"})");
        rig.start_ready();
        rig.call("panel.bootstrap");
        auto* wrong = rig.create(merged(t.config, t.wrong_credentials));
        auto r = rig.try_call("panel.bootstrap", {}, wrong);
        if (r.code >= 0) r = rig.try_call("panel.admin_call", {}, wrong);
        if (r.code >= 0) throw CheckFailure("bootstrap and an admin call with the wrong credentials succeeded");
        if (r.error.empty()) throw CheckFailure("refused without a message");
        return std::string(stand_result_name(r.code)) + ": " + r.error;
    });

    add("panel.restart-keeps-users", "after a restart the panel is ready in time and the users still work",
        [t](Rig& rig) {
            rig.start_ready();
            rig.call("panel.bootstrap");
            auto users = create_users(rig, t.users, "compat");
            auto t0 = Clock::now();
            rig.call("lifecycle.restart");
            double ready = rig.wait_ready(t0);
            rig.call("panel.admin_call");
            for (const auto& u : users) rig.expect_links(u);
            rig.create_user("compat-after-restart");
            return std::string("ready again after ") + secs(ready) + ", " + std::to_string(users.size()) +
                   " users still served, a new user created; " + rig.waits_text();
        });

    add("panel.admin-burst-429-waited", "250 admin calls in a row all succeed; 429s are waited out and counted",
        [](Rig& rig) {
            rig.start_ready();
            rig.call("panel.bootstrap");
            for (int i = 0; i < 250; ++i) rig.call("panel.admin_call");
            return "250 admin calls succeeded; " + rig.waits_text();
        });

    for (auto& c : checks) c.timeout = std::chrono::duration_cast<std::chrono::milliseconds>(t.check_timeout);
    return checks;
}

}  // namespace stand::compat
