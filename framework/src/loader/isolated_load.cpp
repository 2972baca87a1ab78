#include "loader/isolated_load.hpp"

#include "child/child_runner.hpp"

namespace stand::loader {

std::shared_ptr<LoadedPlugin> load_plugin_isolated(const std::filesystem::path& file,
                                                   std::chrono::milliseconds timeout) {
    auto probe = child::run_in_child(
        [&]() -> child::ChildResult {
            try {
                load_plugin(file);
                return {true, false, "", 0};
            } catch (const LoadError& e) {
                return {false, true, e.reason(), 0};  // "skipped" marks a clean refusal
            }
        },
        timeout);
    if (probe.skipped) throw LoadError(file, probe.message);
    if (!probe.passed)
        throw LoadError(file, "crashed or hung while loading (static constructors or " STAND_PLUGIN_ENTRY_SYMBOL
                              "): " + probe.message);
    return load_plugin(file);
}

}  // namespace stand::loader
