#include "loader/isolated_load.hpp"

#include "child/child_runner.hpp"
#include "loader/plugin_loader.hpp"

#include <boost/json.hpp>

namespace stand::loader {

std::shared_ptr<const PluginInfo> describe_plugin_isolated(const std::filesystem::path& file,
                                                           std::chrono::milliseconds timeout) {
    auto probe = child::run_in_child(
        [&]() -> child::ChildResult {
            try {
                const auto plugin = load_plugin(file);
                return {true, false, boost::json::serialize(plugin_info_json(*plugin)), 0};
            } catch (const LoadError& e) {
                return {false, true, e.reason(), 0};  // "skipped" marks a clean refusal
            }
        },
        timeout);
    if (probe.skipped) throw LoadError(file, probe.message);
    if (!probe.passed)
        throw LoadError(file, "crashed or hung while loading (static constructors or " STAND_PLUGIN_ENTRY_SYMBOL
                              "): " + probe.message);
    try {
        return std::make_shared<const PluginInfo>(plugin_info_from_json(boost::json::parse(probe.message)));
    } catch (const std::exception& e) {
        throw LoadError(file, std::string("the loading child's answer is unreadable: ") + e.what());
    }
}

}  // namespace stand::loader
