// The target of the stand.panel/1 compat checks (`stand compat PLUGIN
// --target-config FILE`): a real panel or a test double the plugin starts.
// A JSON object (`//` comment lines allowed) whose keys are those of
// panel_target_keys(): the parser reads by that table, `stand compat --help`
// prints it, and a unit test holds the skeleton's README and target file to it.
#pragma once

#include <boost/json.hpp>

#include <chrono>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>

namespace stand::compat {

struct PanelTarget {
    std::string file;
    boost::json::object config;
    boost::json::object wrong_credentials;
    int users = 5;
    std::chrono::seconds ready_timeout{60};
    std::chrono::seconds check_timeout{180};
    std::chrono::seconds revoke_within{15};
    std::string unserved_links;
    std::string unchecked_listeners;
};

// One key of the target file.
struct PanelTargetKey {
    enum class Kind { object, integer, reason };
    std::string_view name;
    Kind kind;
    int min = 0, max = 0;  // Kind::integer: the accepted range
    bool required = false;
    std::string_view default_text;  // what an absent key means
    std::string_view meaning;
    void (*store)(PanelTarget&, const boost::json::value&);  // after the value has the kind's type

    // "object", "integer 2..1000", "non-empty string".
    std::string type() const;
};

std::span<const PanelTargetKey> panel_target_keys();

// Throws std::runtime_error naming the file and the JSON path.
PanelTarget load_panel_target(const std::filesystem::path& file);

}  // namespace stand::compat
