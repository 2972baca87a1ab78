// The step kinds' registry (framework/src/scenario/steps/): every kind, key
// and metric it declares is documented in scenarios/README.md, the parser
// takes exactly the declared keys, and --list-steps lists every kind.
#include "scenario/steps/step_kind.hpp"
#include "scenario/steps/step_listing.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace stand::scenario;

namespace {

std::string readme() {
    std::ifstream in(std::filesystem::path(STAND_TEST_SOURCE_DIR) / "scenarios" / "README.md");
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

bool documents(const std::string& text, std::string_view word) {
    return text.find("`" + std::string(word) + "`") != std::string::npos;
}

}  // namespace

TEST_CASE("step kinds: scenarios/README.md documents every kind, key and metric the registry declares") {
    const std::string doc = readme();
    REQUIRE_FALSE(doc.empty());
    for (const StepKind* k : step_kinds()) {
        CAPTURE(k->name);
        CHECK_MESSAGE(doc.find("| `" + std::string(k->name) + "` |") != std::string::npos,
                      "no row for the step kind in the steps table");
        for (const StepKey& key : k->keys) CHECK_MESSAGE(documents(doc, key.name), "key " << key.name);
        for (std::string_view m : k->metrics)
            if (m != "*") CHECK_MESSAGE(documents(doc, m), "metric " << m);
    }
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
