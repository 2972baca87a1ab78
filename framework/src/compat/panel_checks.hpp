// The stand.panel/1 compat checks (`stand compat PLUGIN --target-config F`),
// each run in a forked child against a fresh start of the target: the plugin
// installs and starts it (in a box when cgroups are usable), the check runs,
// then the plugin stops and wipes it. Check ids: tests/compat/mustpass-panel-1.txt.
#pragma once

#include "compat/compat_suite.hpp"
#include "compat/panel_target.hpp"

namespace stand::compat {

std::vector<Check> panel_checks(const std::shared_ptr<loader::LoadedPlugin>& plugin, const CompatOptions& options,
                                const PanelTarget& target);

}  // namespace stand::compat
