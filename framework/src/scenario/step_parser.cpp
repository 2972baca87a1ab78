#include "scenario/step_parser.hpp"

#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/value_syntax.hpp"

#include <string_view>
#include <vector>

namespace stand::scenario {
namespace {

namespace json = boost::json;

constexpr double kMaxTimeoutS = 7 * 86400;  // one week

}  // namespace

Step parse_step(const json::value& v, const JsonPlace& place, KindCounter& counter, bool allow_remote) {
    const json::object& object = expect_object(v, place);
    const std::string expected_kind = "one of " + step_kind_names();
    const json::value* kind_value = object.if_contains("step");
    if (kind_value == nullptr || !kind_value->is_string()) place.key("step").fail(expected_kind, kind_value);
    Step step;
    step.kind = std::string(kind_value->get_string());
    const StepKind* kind = find_step_kind(step.kind);
    if (kind == nullptr) place.key("step").fail(expected_kind, kind_value);

    std::vector<std::string_view> allowed = {"step", "name", "timeout_s", "plugin"};
    for (const StepKey& key : kind->keys) allowed.push_back(key.name);
    const bool vowel = std::string_view("aeiou").find(step.kind[0]) != std::string_view::npos;
    const ObjectReader r(v, place, (vowel ? "an " : "a ") + step.kind + " step", allowed);

    const std::size_t number = ++counter[step.kind];
    step.name = step.kind + std::to_string(number);
    if (auto name = r.string("name")) {
        if (!is_valid_name(*name)) r.at("name").fail("a name of letters, digits, '_' and '-' (at most 64)", r.find("name"));
        step.name = *name;
    }
    if (auto plugin = r.string("plugin")) step.plugin = *plugin;
    StepParseContext ctx{allow_remote, [&](const json::value& inner, const JsonPlace& inner_place) {
                             return parse_step(inner, inner_place, counter, allow_remote);
                         }};
    step.action = kind->parse(r, ctx);
    // How long it measures, in seconds; 0: it has no duration.
    const double duration_s = kind->duration ? kind->duration(step.action).value_or(Seconds(0)).count() : 0;
    step.timeout = duration_s > 0 ? step_keys::to_ms(duration_s + 30) : kind->timeout;
    if (kind->timeout_of) step.timeout = kind->timeout_of(step.action, step.timeout);
    if (auto timeout = r.positive("timeout_s", kMaxTimeoutS)) {
        if (duration_s > 0 && *timeout <= duration_s)
            r.at("timeout_s").fail("a number of seconds greater than duration_s (" +
                                       describe_json(json::value(duration_s)) + ")",
                                   r.find("timeout_s"));
        step.timeout = step_keys::to_ms(*timeout);
    }
    step.json_path = place.path();
    return step;
}

}  // namespace stand::scenario
