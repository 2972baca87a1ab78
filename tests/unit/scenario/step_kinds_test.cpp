// The step kinds' registry (framework/src/scenario/steps/): every kind, key
// and metric it declares is in the generated reference docs/steps.md, the
// parser takes exactly the declared keys, and --list-steps lists every kind.
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/step_listing.hpp"
#include "scenario/scenario_parser.hpp"
#include "scenario/step_metrics.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace stand::scenario;

namespace {

std::string read_text(const std::filesystem::path& relative) {
    std::ifstream in(std::filesystem::path(STAND_TEST_SOURCE_DIR) / relative);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("step kinds: docs/steps.md is the registry's reference, and scenarios/README.md points to it") {
    const std::string generated = step_kinds_markdown();
    CHECK_MESSAGE(read_text("docs/steps.md") == generated,
                  "docs/steps.md is not current: build/bin/stand run --list-steps --markdown > docs/steps.md");
    for (const StepKind* k : step_kinds()) {
        CAPTURE(k->name);
        CHECK(generated.find("| `" + std::string(k->name) + "` |") != std::string::npos);
        for (const StepKey& key : k->keys) CHECK_MESSAGE(generated.find("| `" + std::string(key.name) + "` |") != std::string::npos, "key " << key.name);
        for (std::string_view m : k->metrics)
            if (m != "*") CHECK_MESSAGE(generated.find("`" + std::string(m) + "`") != std::string::npos, "metric " << m);
    }
    CHECK(read_text("scenarios/README.md").find("docs/steps.md") != std::string::npos);
}

TEST_CASE("step kinds: names are unique, every kind parses, and the listing has them all") {
    std::set<std::string_view> names;
    const auto json = step_kinds_json();
    const std::string text = step_kinds_text();
    REQUIRE(json.size() == step_kinds().size());
    for (const StepKind* k : step_kinds()) {
        CAPTURE(k->name);
        CHECK(names.insert(k->name).second);
        CHECK(static_cast<bool>(k->parse));
        CHECK_FALSE(k->summary.empty());
        CHECK(find_step_kind(k->name) == k);
        CHECK(text.find(std::string(k->name) + (k->interface.empty() ? "\n" : "  (")) != std::string::npos);
        std::set<std::string_view> keys;
        for (const StepKey& key : k->keys) CHECK_MESSAGE(keys.insert(key.name).second, "key " << key.name << " twice");
        std::set<std::string_view> metrics;
        for (std::string_view m : k->metrics) CHECK_MESSAGE(metrics.insert(m).second, "metric " << m << " twice");
    }
    CHECK(find_step_kind("lod") == nullptr);
    CHECK(step_kind_names().starts_with("install, start, stop, wipe, "));
}

TEST_CASE("step kinds: a metric a step emits beyond its kind's declarations is caught") {
    const auto s = parse_scenario_text(R"({"schema_version": 1, "name": "t", "plugins": ["p"], "phases": [
        {"name": "a", "steps": [{"step": "load", "name": "closed"},
                                {"step": "tunnel_throughput", "server": "hysteria2://pw@127.0.0.1:4443",
                                 "sink": "127.0.0.1:9", "during": {"step": "idle", "duration_s": 1}}]}]})",
                                       "t.json");
    const Step& closed = s.phases[0].steps[0];
    const Step& tunnel = s.phases[0].steps[1];
    const boost::json::object ok{{"closed.rps", 1.0}, {"closed.p99_ms", 2.0}};
    CHECK(undeclared_metrics(closed, ok, {}).empty());
    // late_pct belongs to the open model (a rate); this load has none.
    const boost::json::object late{{"closed.rps", 1.0}, {"closed.late_pct", 0.0}, {"closed.bogus", 3.0}};
    CHECK(undeclared_metrics(closed, late, {}) == std::vector<std::string>{"closed.late_pct", "closed.bogus"});
    // What earlier steps emitted is theirs.
    CHECK(undeclared_metrics(closed, late, {"closed.late_pct", "closed.bogus"}).empty());
    // A step run inside another: its metrics are the outer step's to emit.
    const boost::json::object nested{{"tunnel_throughput1.gbit_s", 1.0}, {"idle1.cpu_pct", 5.0}};
    CHECK(undeclared_metrics(tunnel, nested, {}).empty());
    CHECK(undeclared_metrics(tunnel, {{"idle1.rps", 1.0}}, {}) == std::vector<std::string>{"idle1.rps"});
}
