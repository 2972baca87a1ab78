#include "report/machine_facts.hpp"

#include "report/markdown_text.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <map>

namespace stand::report {
namespace {

namespace json = boost::json;

// A run on several hosts (run.json "fleet_hosts"): a column per host.
MachineFacts fleet_machine_facts(const json::array& hosts) {
    MachineFacts out;
    std::map<std::string, std::map<std::string, std::string>> facts;  // fact -> host -> value
    std::vector<std::string> order{"address", "stand", "clock offset to the controller", "run"};
    for (const auto& v : hosts) {
        const auto& h = v.as_object();
        const std::string name(h.at("name").as_string());
        out.columns.push_back(name);
        facts["address"][name] = std::string(h.at("url").as_string());
        if (auto* s = h.if_contains("stand"); s && s->is_object())
            if (auto* ver = s->as_object().if_contains("version")) facts["stand"][name] = fact_text(*ver);
        char clock[96];
        std::snprintf(clock, sizeof(clock), "%+.3f ms ± %.3f ms", h.at("clock_offset_ns").to_number<double>() / 1e6,
                      h.at("clock_uncertainty_ns").to_number<double>() / 1e6);
        facts["clock offset to the controller"][name] = clock;
        const std::string problem(h.at("problem").as_string());
        facts["run"][name] = !problem.empty() ? problem : "exit " + fact_text(h.at("exit_code"));
        if (auto* f = h.if_contains("host_facts"); f && f->is_object())
            for (const auto& [k, x] : f->as_object()) {
                if (!facts.contains(std::string(k))) order.push_back(std::string(k));
                facts[std::string(k)][name] = fact_text(x);
            }
    }
    for (const auto& fact : order) {
        std::vector<std::string> values;
        for (const auto& n : out.columns) {
            auto it = facts[fact].find(n);
            values.push_back(it == facts[fact].end() ? "n/a" : it->second);
        }
        out.rows.emplace_back(fact, std::move(values));
    }
    return out;
}

}  // namespace

MachineFacts machine_facts(const json::object& run) {
    if (auto* f = run.if_contains("fleet_hosts"); f && f->is_array()) return fleet_machine_facts(f->as_array());
    MachineFacts out;
    if (auto* h = run.if_contains("host_facts"); h && h->is_object()) {
        out.columns = {"Value"};
        for (const auto& [k, v] : h->as_object()) out.rows.emplace_back(std::string(k), std::vector<std::string>{fact_text(v)});
    }
    return out;
}

}  // namespace stand::report
