#include "scenario/step_parser.hpp"

#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/value_syntax.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace stand::scenario {
namespace {

namespace json = boost::json;
using std::chrono::milliseconds;

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
    step.action = kind->parse(r, StepParseContext{allow_remote});
    if (auto* tunnel = std::get_if<TunnelStep>(&step.action); tunnel && r.find("during")) {
        Step inner = parse_step(*r.find("during"), r.at("during"), counter, allow_remote);
        if (std::holds_alternative<TunnelStep>(inner.action) || std::holds_alternative<ManyClientsStep>(inner.action))
            r.at("during").key("step").fail("a step that is not a tunnel (one tunnel at a time)",
                                            r.find("during")->as_object().if_contains("step"));
        tunnel->during = std::make_shared<const Step>(std::move(inner));
    }
    const auto duration = kind->duration ? kind->duration(step.action) : std::nullopt;
    step.timeout = duration ? step_keys::to_ms(duration->count() + 30) : kind->timeout;
    // many_clients first fetches every client's subscription (its link):
    // up to a second each on a loaded panel, before the window starts.
    if (auto* many = std::get_if<ManyClientsStep>(&step.action))
        step.timeout += milliseconds(1000) * static_cast<long long>(many->clients);
    if (auto* tunnel = std::get_if<TunnelStep>(&step.action); tunnel && tunnel->during) {
        // The step lasts as long as the longer of the two.
        const auto inner_end = std::chrono::duration_cast<milliseconds>(tunnel->during_after) + tunnel->during->timeout;
        step.timeout = std::max(step.timeout, inner_end + milliseconds(30'000));
    }
    if (auto timeout = r.positive("timeout_s", kMaxTimeoutS)) {
        if (duration && *timeout <= duration->count())
            r.at("timeout_s").fail("a number of seconds greater than duration_s (" +
                                       describe_json(json::value(duration->count())) + ")",
                                   r.find("timeout_s"));
        step.timeout = step_keys::to_ms(*timeout);
    }
    step.json_path = place.path();
    return step;
}

}  // namespace stand::scenario
