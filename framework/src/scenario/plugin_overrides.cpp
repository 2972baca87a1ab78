#include "scenario/plugin_overrides.hpp"

#include "scenario/json_reader.hpp"
#include "scenario/json_text.hpp"
#include "scenario/value_syntax.hpp"
#include "text/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

namespace stand::scenario {
namespace {

namespace json = boost::json;

std::string json_quote(std::string_view s) { return json::serialize(json::string_view(s.data(), s.size())); }

json::object parse_config(std::string_view text, const std::filesystem::path& source) {
    json::value config;
    try {
        config = parse_json_text(text, source);
    } catch (const ScenarioError& e) {
        throw std::runtime_error(e.what());
    }
    if (!config.is_object()) throw std::runtime_error("expected a JSON object as config, got " + describe_json(config));
    return std::move(config.get_object());
}

json::object read_config(std::string_view spec) {
    if (spec.empty()) throw std::runtime_error("expected a JSON object or @FILE after '=', got nothing");
    if (spec[0] != '@') return parse_config(spec, "config");
    const std::filesystem::path file(spec.substr(1));
    return parse_config(text::read_input_file(file), file);
}

PluginRef parse_one(const std::string& arg) {
    const std::size_t eq = arg.find('=');
    PluginRef plugin;
    plugin.id = arg.substr(0, eq);
    // "LABEL:ID": the column, run directory and cgroup name (a plugin path has no ':' before its first '/').
    const std::size_t colon = plugin.id.find(':');
    if (colon != std::string::npos && plugin.id.find('/') > colon) {
        plugin.label = plugin.id.substr(0, colon);
        plugin.id = plugin.id.substr(colon + 1);
        if (!is_valid_label(plugin.label))
            throw std::runtime_error("expected a label (letters, digits, '_', '-', '.') before ':', got " +
                                     json_quote(plugin.label));
    }
    if (!is_plugin_reference(plugin.id))
        throw std::runtime_error("expected a plugin id (lowercase letters, digits, '.', '_', '-') or a path to a .so "
                                 "file, got " + json_quote(plugin.id));
    if (eq != std::string::npos) plugin.config = read_config(std::string_view(arg).substr(eq + 1));
    if (plugin.label.empty()) plugin.label = default_label(plugin.id);
    if (!is_valid_label(plugin.label))
        throw std::runtime_error("expected a plugin whose file name makes a label (letters, digits, '_', '-', '.'), got " +
                                 json_quote(plugin.id));
    return plugin;
}

}  // namespace

std::vector<PluginRef> parse_plugin_overrides(const std::vector<std::string>& args) {
    std::vector<PluginRef> plugins;
    std::set<std::string> labels;
    for (const std::string& arg : args) {
        try {
            plugins.push_back(parse_one(arg));
            if (!labels.insert(plugins.back().label).second)
                throw std::runtime_error("expected each label once (one plugin twice takes a label each: "
                                         "--plugin LABEL:ID=CONFIG), got " + json_quote(plugins.back().label) + " again");
        } catch (const std::runtime_error& e) {
            throw PluginOverrideError("--plugin '" + arg + "': " + e.what());
        }
    }
    return plugins;
}

}  // namespace stand::scenario
