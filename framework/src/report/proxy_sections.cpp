#include "report/proxy_sections.hpp"
#include "rundir/run_files.hpp"

#include "report/markdown_text.hpp"

#include <map>
#include <set>

namespace stand::report {
namespace {

namespace json = boost::json;

using StepDefaults = std::vector<std::pair<std::string, json::object>>;  // configure step name, defaults, in order

// plugin -> its configure steps' defaults, from its first finished repetition.
std::map<std::string, StepDefaults> defaults_by_plugin(const std::vector<json::object>& reps,
                                                       std::vector<std::string>& plugin_order) {
    std::map<std::string, StepDefaults> out;
    for (const auto& rep : reps) {
        const auto* d = rep.if_contains(rundir::rep_key::kProxyDefaults);
        const auto* status = rep.if_contains(rundir::rep_key::kStatus);
        if (d == nullptr || !d->is_object() || status == nullptr || *status != "ok") continue;
        const std::string plugin(rep.at(rundir::rep_key::kPlugin).as_string());
        if (out.contains(plugin)) continue;
        plugin_order.push_back(plugin);
        auto& steps = out[plugin];
        for (const auto& [step, v] : d->as_object())
            if (v.is_object()) steps.emplace_back(std::string(step), v.as_object());
    }
    return out;
}

std::string table(const std::string& heading, const std::vector<std::string>& plugins,
                  const std::vector<std::string>& keys, const std::map<std::string, json::object>& values) {
    std::string md = heading + "\n\n| Setting |";
    for (const auto& p : plugins) md += " " + cell_text(p) + " |";
    md += "\n|---|";
    for (std::size_t i = 0; i < plugins.size(); ++i) md += "---|";
    md += "\n";
    for (const auto& k : keys) {
        md += "| " + cell_text(k) + " |";
        for (const auto& p : plugins) {
            const auto it = values.find(p);
            const json::value* v = it == values.end() ? nullptr : it->second.if_contains(k);
            md += " " + (v == nullptr ? std::string("-") : cell_text(fact_text(*v))) + " |";
        }
        md += "\n";
    }
    return md + "\n";
}

}  // namespace

std::string proxy_defaults_markdown(const std::vector<json::object>& reps) {
    std::vector<std::string> plugins;
    const auto by_plugin = defaults_by_plugin(reps, plugins);
    if (by_plugin.empty()) return "";
    // Step names in the order the first plugin ran them.
    std::vector<std::string> steps;
    for (const auto& [step, _] : by_plugin.at(plugins.front())) steps.push_back(step);

    std::string md = "## Defaults of the compared systems\n\n"
                     "What each system reported for the settings that decide a comparison (its effective_defaults() "
                     "after each configure step). A ranking of systems on their defaults ranks these rows.\n\n";
    std::map<std::string, json::object> previous;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        std::map<std::string, json::object> current;
        std::vector<std::string> keys;
        std::set<std::string> seen;
        for (const auto& p : plugins)
            for (const auto& [step, d] : by_plugin.at(p))
                if (step == steps[i]) {
                    current[p] = d;
                    for (const auto& [k, v] : d) {
                        const bool changed = i == 0 || !previous[p].contains(k) || previous[p].at(k) != v;
                        if (changed && seen.insert(std::string(k)).second) keys.emplace_back(k);
                    }
                }
        if (!keys.empty())
            md += table(i == 0 ? "After `" + steps[i] + "`:" : "After `" + steps[i] + "`, what changed:", plugins,
                        keys, current);
        previous = std::move(current);
    }
    return md;
}

std::string tls_sessions_markdown(const std::vector<json::object>& reps) {
    // plugin -> step -> distinct "key type, protocol, cipher, ALPN"
    std::map<std::string, std::map<std::string, std::set<std::string>>> sessions;
    for (const auto& rep : reps) {
        const auto* t = rep.if_contains(rundir::rep_key::kTlsSessions);
        if (t == nullptr || !t->is_object()) continue;
        const std::string plugin(rep.at(rundir::rep_key::kPlugin).as_string());
        for (const auto& [step, s] : t->as_object()) {
            if (!s.is_object()) continue;
            const auto& o = s.as_object();
            auto field = [&](const char* k) { return o.contains(k) ? fact_text(o.at(k)) : std::string("?"); };
            sessions[plugin][std::string(step)].insert(field("key_type") + " | " + field("protocol") + " | " +
                                                       field("cipher") + " | " + field("alpn"));
        }
    }
    if (sessions.empty()) return "";
    std::string md = "## TLS sessions\n\nWhat one handshake after each TLS load negotiated (TLS 1.2 against 1.3 "
                     "changes a handshake's cost).\n\n| Plugin | Step | Key | Protocol | Cipher | ALPN |\n"
                     "|---|---|---|---|---|---|\n";
    for (const auto& [plugin, steps] : sessions)
        for (const auto& [step, values] : steps)
            for (const auto& v : values) md += "| " + cell_text(plugin) + " | " + cell_text(step) + " | " + v + " |\n";
    return md + "\n";
}

std::string placement_markdown(const std::vector<json::object>& reps) {
    std::set<std::string> lines;
    for (const auto& rep : reps) {
        const auto* p = rep.if_contains(rundir::rep_key::kPlacement);
        if (p == nullptr || !p->is_object()) continue;
        const auto& o = p->as_object();
        auto field = [&](const char* k) { return o.contains(k) ? fact_text(o.at(k)) : std::string("?"); };
        lines.insert("| " + field("measured") + " | " + field("backend") + " | " + field("generator") + " | " +
                     cell_text(field("note")) + " |");
    }
    if (lines.empty()) return "";
    std::string md = "## CPU placement\n\n| System (box) | Backend | Generator | Note |\n|---|---|---|---|\n";
    for (const auto& l : lines) md += l + "\n";
    return md + "\n";
}

}  // namespace stand::report
