#include "scenario/scenario_params.hpp"

#include "scenario/json_reader.hpp"
#include "scenario/json_text.hpp"
#include "scenario/scenario_error.hpp"
#include "scenario/value_syntax.hpp"
#include "text/number_format.hpp"

#include <cmath>
#include <string>

namespace stand::scenario {
namespace {

namespace json = boost::json;

// A parameter's value as text in a sentence: 2, 1.5, "fail", true.
std::string text_of(const json::value& v) {
    if (v.is_string()) return std::string(v.get_string());
    if (v.is_double()) {
        const double d = v.get_double();
        return d == std::floor(d) && std::fabs(d) < 1e15 ? std::to_string(static_cast<long long>(d)) : text::format_shortest(d);
    }
    return json::serialize(v);
}

// A table's title or a row's label states parameters as "${name}" inside its
// text ("One server, ${vcpu} vCPU: panel with ${users} users"): the run's
// values, so a title never states what the run did not do.
void substitute_in_text(json::value& v, const json::object& params, const JsonPlace& place, ParamSources& sources) {
    std::string_view s = v.as_string();
    std::string out;
    bool replaced = false;
    for (std::size_t at; (at = s.find("${")) != std::string_view::npos;) {
        const auto end = s.find('}', at);
        if (end == std::string_view::npos) break;
        const std::string name(s.substr(at + 2, end - at - 2));
        const json::value* value = params.if_contains(name);
        if (value == nullptr) place.fail("text whose \"${...}\" name declared parameters (see $.params)", &v);
        sources[place.path()] = name;
        out += s.substr(0, at);
        out += text_of(*value);
        s.remove_prefix(end + 1);
        replaced = true;
    }
    if (replaced) v = json::value(out + std::string(s));
}

void substitute(json::value& v, const json::object& params, const JsonPlace& place, ParamSources& sources) {
    if (v.is_string()) {
        const std::string_view s = v.as_string();
        if (place.path().rfind("$.tables", 0) == 0) {  // every field of a table is text
            substitute_in_text(v, params, place, sources);
        } else if (s.size() > 3 && s.substr(0, 2) == "${" && s.back() == '}') {
            const std::string name(s.substr(2, s.size() - 3));
            const json::value* value = params.if_contains(name);
            // Plugin configs have placeholders of their own (${data_dir}, ${port}).
            if (value == nullptr && place.path().rfind("$.plugins", 0) == 0) return;
            if (value == nullptr) place.fail("a declared parameter (see $.params)", &v);
            sources[place.path()] = name;
            v = *value;
        }
    } else if (v.is_object()) {
        for (auto& [k, child] : v.as_object()) substitute(child, params, place.key(k), sources);
    } else if (v.is_array()) {
        auto& a = v.as_array();
        for (std::size_t i = 0; i < a.size(); ++i) substitute(a[i], params, place.index(i), sources);
    }
}

}  // namespace

json::object apply_scenario_params(json::value& root, const ParamOverrides& overrides, const std::filesystem::path& file,
                                   ParamSources* sources) {
    const JsonPlace top(file);
    if (!root.is_object()) return {};
    json::object params;
    if (auto* p = root.as_object().if_contains("params")) {
        if (!p->is_object()) top.key("params").fail("an object of parameter defaults", p);
        for (const auto& [k, v] : p->as_object()) {
            if (!is_valid_name(k)) top.key("params").fail("parameter names of letters, digits, '_' and '-'", p);
            if (v.is_object() || v.is_array() || v.is_null())
                top.key("params").key(k).fail("a number, string or boolean", &v);
            params[k] = v;
        }
        root.as_object().erase("params");
    }
    for (const auto& [name, text] : overrides) {
        if (!params.contains(name))
            throw ScenarioError(file, "$.params", "--param " + name + ": the scenario declares no such parameter" +
                                                      (params.empty() ? "" : " (declared: " + [&] {
                                                          std::string list;
                                                          for (const auto& [k, v] : params)
                                                              list += (list.empty() ? "" : ", ") + std::string(k);
                                                          return list;
                                                      }() + ")"));
        boost::system::error_code ec;
        auto v = json::parse(text, ec);
        if (ec) v = json::value(text);  // not JSON: the text itself, a string
        if (v.is_object() || v.is_array() || v.is_null())
            throw ScenarioError(file, "$.params", "--param " + name + "=" + text +
                                                      ": expected a number, string or boolean, as the file's params are");
        if (v.is_double())
            if (std::string why = number_refusal(v.get_double(), text); !why.empty())
                throw ScenarioError(file, "$.params", "--param " + name + "=" + text + ": " + why.substr(0, why.rfind(", got ")));
        params[name] = v;
    }
    ParamSources ignored;
    substitute(root, params, top, sources != nullptr ? *sources : ignored);
    return params;
}

}  // namespace stand::scenario
