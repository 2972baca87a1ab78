#include "detect/defaults_differ.hpp"
#include "rundir/run_files.hpp"

#include <map>
#include <set>
#include <string>

namespace stand::detect {
namespace {

namespace json = boost::json;

struct Reported {
    json::object values;
    std::set<std::string> set;  // keys the scenario set for this system
};

// source (a configure step's name in backquotes, or kFacts) -> plugin -> what it reported
using BySource = std::map<std::string, std::map<std::string, Reported>>;

// Explanations of another key are not compared (stand/ext/proxy.h).
constexpr const char* kFacts = "the systems' facts";

bool is_setting(const std::string& key) {
    return key != "version" && key != "upstream_pool" && !key.ends_with("_source") && !key.ends_with("_note") &&
           !key.ends_with("_means");
}

std::string value_text(const json::value& v) {
    return v.is_string() ? std::string(v.as_string()) : json::serialize(v);
}

std::set<std::string> config_keys(const json::array& plugins, const std::string& label) {
    std::set<std::string> keys;
    for (const auto& p : plugins) {
        const auto* o = p.if_object();
        const auto* l = o != nullptr ? o->if_contains("label") : nullptr;
        if (l == nullptr || !l->is_string() || l->as_string() != label) continue;
        if (const auto* c = o->if_contains("config"); c && c->is_object())
            for (const auto& [k, _] : c->as_object()) keys.emplace(k);
    }
    return keys;
}

// What each system reported, by source, sources in the order first met.
struct Collected {
    BySource by_source;
    std::vector<std::string> source_order;

    void add(const std::string& source, const std::string& plugin, Reported r) {
        if (!by_source.contains(source)) source_order.push_back(source);
        by_source[source][plugin] = std::move(r);
    }
};

// The defaults the first finished repetition of each plugin reported: per
// configure step (proxy_defaults), else its facts' "defaults".
Collected collect(const std::vector<json::object>& reps, const json::array& plugins) {
    Collected c;
    std::set<std::string> plugins_seen;
    for (const auto& rep : reps) {
        const auto* status = rundir::field(rep, rundir::rep_key::kStatus);
        const auto* label = rep.if_contains("plugin");
        if (status == nullptr || *status != "ok" || label == nullptr || !label->is_string()) continue;
        const std::string plugin(label->as_string());
        if (!plugins_seen.insert(plugin).second) continue;  // the first finished repetition speaks for the plugin
        const auto configured = config_keys(plugins, plugin);
        const json::object* set_by_step = nullptr;
        if (const auto* s = rundir::field(rep, rundir::rep_key::kProxyDefaultsSet); s && s->is_object()) set_by_step = &s->as_object();
        if (const auto* d = rundir::field(rep, rundir::rep_key::kProxyDefaults); d && d->is_object() && !d->as_object().empty()) {
            for (const auto& [step, values] : d->as_object()) {
                if (!values.is_object()) continue;
                Reported r{values.as_object(), configured};
                if (set_by_step != nullptr)
                    if (const auto* keys = set_by_step->if_contains(step); keys && keys->is_array())
                        for (const auto& k : keys->as_array())
                            if (k.is_string()) r.set.emplace(k.as_string());
                c.add("`" + std::string(step) + "`", plugin, std::move(r));
            }
            continue;
        }
        if (const auto* f = rundir::field(rep, rundir::rep_key::kFacts); f && f->is_object())
            if (const auto* d = f->as_object().if_contains("defaults"); d && d->is_object())
                c.add(kFacts, plugin, Reported{d->as_object(), configured});
    }
    return c;
}

// key + the values -> where: one finding for a difference that stays over several steps
struct Differences {
    std::vector<std::pair<std::string, std::string>> order;
    std::map<std::pair<std::string, std::string>, std::vector<std::string>> where;
};

// "plugin value; plugin value" when at least two systems report `key` with
// different values and none had it set by the scenario; "" otherwise.
std::string differing_values(const std::map<std::string, Reported>& systems, const std::string& key) {
    bool set = false;
    std::vector<std::pair<std::string, std::string>> values;  // plugin, value
    std::set<std::string> distinct;
    for (const auto& [plugin, r] : systems) {
        const auto* v = r.values.if_contains(key);
        if (v == nullptr) continue;
        const auto* source_of = r.values.if_contains(key + "_source");
        if (r.set.contains(key) || (source_of != nullptr && *source_of == "knob")) set = true;
        values.emplace_back(plugin, value_text(*v));
        distinct.insert(json::serialize(*v));
    }
    if (set || values.size() < 2 || distinct.size() < 2) return "";
    std::string list;
    for (const auto& [plugin, text] : values) list += (list.empty() ? "" : "; ") + plugin + " " + text;
    return list;
}

Differences differences(const Collected& c) {
    Differences d;
    for (const auto& source : c.source_order) {
        const auto& systems = c.by_source.at(source);
        if (systems.size() < 2) continue;
        std::set<std::string> keys;
        for (const auto& [_, r] : systems)
            for (const auto& [k, __] : r.values) keys.emplace(k);
        for (const auto& key : keys) {
            if (!is_setting(key)) continue;
            const std::string list = differing_values(systems, key);
            if (list.empty()) continue;
            auto& places = d.where[{key, list}];
            if (places.empty()) d.order.emplace_back(key, list);
            places.push_back(source);
        }
    }
    return d;
}

Finding finding_of(const std::pair<std::string, std::string>& key_values, const std::vector<std::string>& places) {
    std::string steps;
    std::size_t count = 0;
    bool facts = false;
    for (const auto& place : places) {
        if (place == kFacts) facts = true;
        else steps += (count++ == 0 ? "" : ", ") + place;
    }
    std::string scope = count == 0 ? "" : (count == 1 ? "after configure step " : "after configure steps ") + steps;
    if (facts) scope += (scope.empty() ? "" : "; ") + std::string(kFacts);
    return Finding{"defaults-differ", scope,
                   key_values.first + " differs (" + key_values.second +
                       ") and the scenario did not set it: a ranking on these defaults ranks this setting, "
                       "not only the systems"};
}

}  // namespace

std::vector<Finding> check_defaults_differ(const std::vector<json::object>& reps, const json::array& plugins) {
    const auto d = differences(collect(reps, plugins));
    std::vector<Finding> out;
    for (const auto& k : d.order) out.push_back(finding_of(k, d.where.at(k)));
    return out;
}

}  // namespace stand::detect
