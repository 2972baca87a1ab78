#include "scenario/steps/step_listing.hpp"

#include "scenario/steps/step_kind.hpp"

#include <sstream>

namespace stand::scenario {
namespace {

namespace json = boost::json;

std::string timeout_text(const StepKind& k) {
    if (k.duration != nullptr) return "duration_s + 30 s";
    return std::to_string(k.timeout.count() / 1000) + " s";
}

// Text for a Markdown table cell: '<' and '>' as entities, '|' escaped.
std::string md(std::string_view text) {
    std::string out;
    for (char c : text) {
        if (c == '<') out += "&lt;";
        else if (c == '>') out += "&gt;";
        else if (c == '|') out += "\\|";
        else out += c;
    }
    return out;
}

}  // namespace

std::string step_kinds_text() {
    std::ostringstream out;
    for (const StepKind* k : step_kinds()) {
        out << k->name << (k->interface.empty() ? "" : "  (" + std::string(k->interface) + ")") << "\n  "
            << k->summary << "\n";
        for (const StepKey& key : k->keys)
            out << "  " << key.name << ": " << key.type << " (" << key.fallback << ")\n";
        if (!k->metrics.empty()) {
            out << "  metrics:";
            for (std::string_view m : k->metrics) out << " " << m;
            out << "\n";
        }
        out << "  default timeout: " << timeout_text(*k) << "\n\n";
    }
    out << "Every step also takes: step (the kind), name (prefixes its metrics), timeout_s, plugin (run only for "
           "that plugin's label). scenarios/README.md documents them.\n";
    return out.str();
}

std::string step_kinds_markdown() {
    std::ostringstream out;
    out << "# Step kinds\n\n"
           "Generated from the step kinds' registry (framework/src/scenario/steps/) by\n"
           "`stand run --list-steps --markdown > docs/steps.md`; a unit test fails when it\n"
           "is not current. scenarios/README.md explains how the steps are used.\n\n"
           "Every step also takes `step` (the kind), `name` (prefixes its metrics; default\n"
           "the kind and a count), `timeout_s` and `plugin` (run only for that plugin's\n"
           "label). A metric is `<step name>.<metric>`.\n\n"
           "| kind | interface | what it does | default timeout |\n|---|---|---|---|\n";
    for (const StepKind* k : step_kinds())
        out << "| `" << k->name << "` | " << (k->interface.empty() ? "the host" : std::string(k->interface)) << " | "
            << md(k->summary) << " | " << timeout_text(*k) << " |\n";
    for (const StepKind* k : step_kinds()) {
        out << "\n## " << k->name << "\n\n" << md(k->summary) << ".\n";
        if (!k->keys.empty()) {
            out << "\n| key | type | default |\n|---|---|---|\n";
            for (const StepKey& key : k->keys)
                out << "| `" << key.name << "` | " << md(key.type) << " | " << md(key.fallback) << " |\n";
        }
        if (!k->metrics.empty()) {
            out << "\nMetrics:";
            const char* sep = " ";
            for (std::string_view m : k->metrics) {
                out << sep << (m == "*" ? std::string("whatever the plugin reports") : "`" + std::string(m) + "`");
                sep = ", ";
            }
            out << ".\n";
        }
    }
    return out.str();
}

json::array step_kinds_json() {
    json::array out;
    for (const StepKind* k : step_kinds()) {
        json::array keys, metrics;
        for (const StepKey& key : k->keys)
            keys.push_back(json::object{{"name", key.name}, {"type", key.type}, {"default", key.fallback}});
        for (std::string_view m : k->metrics) metrics.emplace_back(m);
        json::object kind{{"name", k->name}, {"summary", k->summary}, {"interface", k->interface},
                          {"keys", std::move(keys)}, {"metrics", std::move(metrics)}};
        if (k->duration != nullptr) kind["timeout"] = "duration_s + 30 s";
        else kind["default_timeout_s"] = static_cast<double>(k->timeout.count()) / 1000.0;
        out.push_back(std::move(kind));
    }
    return out;
}

}  // namespace stand::scenario
