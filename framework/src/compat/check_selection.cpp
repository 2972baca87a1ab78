#include "compat/check_selection.hpp"

#include "text/closest_word.hpp"

#include <algorithm>

namespace stand::compat {

std::string check_selection_problem(const std::vector<std::string>& requested, const std::vector<std::string>& known) {
    const auto unknown = std::find_if(requested.begin(), requested.end(), [&](const std::string& id) {
        return std::find(known.begin(), known.end(), id) == known.end();
    });
    if (unknown == requested.end()) return {};
    std::string message = "--check: no check '" + *unknown + "' here";
    const bool panel_checks_here = std::any_of(known.begin(), known.end(), [](const std::string& id) {
        return id.starts_with("panel.") && id != "panel.interface";
    });
    if (auto near = text::closest_word(*unknown, known)) message += " (did you mean " + *near + "?)";
    else if (unknown->starts_with("panel.") && !panel_checks_here)
        message += " (the panel checks run with --target-config FILE, for a plugin declaring stand.panel/1)";
    std::string list;
    for (const auto& id : known) list += (list.empty() ? "" : ", ") + id;
    return message + "; the checks of this plugin with these options: " + list;
}

}  // namespace stand::compat
