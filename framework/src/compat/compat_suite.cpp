#include "compat/compat_suite.hpp"

#include "compat/panel_checks.hpp"
#include "compat/proxy_checks.hpp"

#include "host/plugin_host.hpp"
#include "loader/config_secrets.hpp"
#include "loader/interface_catalog.hpp"

#include <stand/stand.h>

#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace stand::compat {
namespace {

using loader::LoadedPlugin;
using Plugin = std::shared_ptr<LoadedPlugin>;

constexpr const char* kUnknownInterface = "org.stand.compat.no-such-interface/1";

ChildResult pass(std::string message = {}) { return {true, false, std::move(message), 0}; }
ChildResult fail(std::string message) { return {false, false, std::move(message), 0}; }

std::size_t resident_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::size_t pages = 0, resident = 0;
    statm >> pages >> resident;
    return resident * static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
}

host::HostConfig quiet_host(const CompatOptions& options) {
    host::HostConfig config;
    config.run_dir = options.run_dir;
    config.log = [](int, const std::string&, const std::string&) {};
    return config;
}

// create() + destroy() with an error buffer; returns "" or the failure.
std::string create_once(const LoadedPlugin& p, const host::PluginHost& host, const std::string& config,
                        stand_instance** out) {
    char message[1024] = {0};
    stand_error err{sizeof(stand_error), sizeof(message), message};
    *out = nullptr;
    stand_result r = p.entry.create(host.get(), config.data(), config.size(), out, &err);
    if (r < 0)
        return std::string("create() failed with ") + stand_result_name(r) + ": " + (message[0] ? message : "(no message)");
    if (*out == nullptr) return "create() returned " + std::to_string(r) + " but no instance";
    return {};
}

ChildResult check_create_destroy(const Plugin& p, const CompatOptions& o) {
    host::PluginHost host(p->id, quiet_host(o));
    stand_instance* instance = nullptr;
    if (auto e = create_once(*p, host, o.config_json, &instance); !e.empty()) return fail(e);
    p->entry.destroy(instance);
    boost::system::error_code ec;
    auto config = boost::json::parse(o.config_json, ec);
    if (ec || !config.is_object()) return pass("config " + o.config_json);
    return pass("config " + boost::json::serialize(loader::redacted_config(config.as_object(), p->config_schema)));
}

ChildResult check_create_destroy_rss(const Plugin& p, const CompatOptions& o) {
    host::PluginHost host(p->id, quiet_host(o));
    auto cycle = [&](int n) -> std::string {
        for (int i = 0; i < n; ++i) {
            stand_instance* instance = nullptr;
            if (auto e = create_once(*p, host, o.config_json, &instance); !e.empty())
                return "cycle " + std::to_string(i) + ": " + e;
            p->entry.destroy(instance);
        }
        return {};
    };
    if (auto e = cycle(10); !e.empty()) return fail(e);
    std::size_t before = resident_bytes();
    if (auto e = cycle(100); !e.empty()) return fail(e);
    std::size_t after = resident_bytes();
    long long growth = static_cast<long long>(after) - static_cast<long long>(before);
    std::string detail = "RSS " + std::to_string(before / 1024) + " KiB -> " + std::to_string(after / 1024) +
                         " KiB after 100 cycles";
    if (growth > static_cast<long long>(o.rss_growth_limit_bytes))
        return fail(detail + ": grew more than " + std::to_string(o.rss_growth_limit_bytes / 1024) + " KiB (leak?)");
    return pass(detail);
}

ChildResult check_invalid_config(const Plugin& p, const CompatOptions& o) {
    host::PluginHost host(p->id, quiet_host(o));
    for (std::string bad : {std::string("{\"broken\": "), std::string("[1, 2, 3]")}) {
        char message[1024] = {0};
        stand_error err{sizeof(stand_error), sizeof(message), message};
        stand_instance* instance = nullptr;
        stand_result r = p->entry.create(host.get(), bad.data(), bad.size(), &instance, &err);
        if (r >= 0) {
            if (instance) p->entry.destroy(instance);
            return fail("create() accepted the invalid config '" + bad + "'");
        }
        if (instance != nullptr) return fail("create() failed but set *out_instance for config '" + bad + "'");
        if (message[0] == '\0') return fail("create() failed without an error message for config '" + bad + "'");
    }
    return pass("rejected malformed JSON and a non-object config, with messages");
}

ChildResult check_unknown_interface(const Plugin& p, const CompatOptions& o) {
    host::PluginHost host(p->id, quiet_host(o));
    stand_instance* instance = nullptr;
    if (auto e = create_once(*p, host, o.config_json, &instance); !e.empty()) return fail(e);
    const void* table = p->entry.get_interface(instance, kUnknownInterface);
    const void* null_id = p->entry.get_interface(instance, "");
    p->entry.destroy(instance);
    if (table != nullptr) {
        std::string message = "get_interface(\"";  // appended, not added: GCC 12's -Warray-bounds misfires on the sum
        message.append(kUnknownInterface).append("\") returned non-NULL");
        return fail(message);
    }
    if (null_id != nullptr) return fail("get_interface(\"\") returned non-NULL");
    return pass("unknown ids return NULL");
}

ChildResult check_interface(const Plugin& p, const CompatOptions& o, const std::string& id) {
    host::PluginHost host(p->id, quiet_host(o));
    stand_instance* instance = nullptr;
    if (auto e = create_once(*p, host, o.config_json, &instance); !e.empty()) return fail(e);
    const void* table = p->entry.get_interface(instance, id.c_str());
    std::string problem = loader::check_interface_table(id, table);
    p->entry.destroy(instance);
    if (!problem.empty()) return fail(problem);
    return pass(loader::find_interface_spec(id) ? "table size and required members valid"
                                                : "third-party interface: table present with a struct_size");
}

}  // namespace

std::size_t CompatReport::passed() const {
    std::size_t n = 0;
    for (const auto& c : checks) n += c.result.passed && !c.result.skipped;
    return n;
}
std::size_t CompatReport::failed() const {
    std::size_t n = 0;
    for (const auto& c : checks) n += !c.result.passed && !c.result.skipped;
    return n;
}
std::size_t CompatReport::skipped() const {
    std::size_t n = 0;
    for (const auto& c : checks) n += c.result.skipped;
    return n;
}

std::vector<Check> generic_checks(const Plugin& p, const CompatOptions& o) {
    std::vector<Check> checks;
    std::string ifaces;
    for (const auto& i : p->interfaces) ifaces += (ifaces.empty() ? "" : ", ") + i;
    checks.push_back({"generic.load", "entry table and descriptor pass the loader's checks", false, [p, ifaces] {
                          return pass("id " + p->id + " " + p->version + ", ABI " +
                                      std::to_string(p->entry.abi.major) + "." + std::to_string(p->entry.abi.minor) +
                                      ", interfaces: " + (ifaces.empty() ? "none" : ifaces));
                      }});
    checks.push_back({"generic.create-destroy", "create() with the config, then destroy()", true,
                      [p, o] { return check_create_destroy(p, o); }});
    checks.push_back({"generic.create-destroy-x100", "100 create/destroy cycles keep RSS bounded", true,
                      [p, o] { return check_create_destroy_rss(p, o); }});
    checks.push_back({"generic.invalid-config", "an invalid config is an error with a message", true,
                      [p, o] { return check_invalid_config(p, o); }});
    checks.push_back({"generic.unknown-interface", "get_interface() returns NULL for unknown ids", true,
                      [p, o] { return check_unknown_interface(p, o); }});
    for (const auto& id : p->interfaces)
        checks.push_back({"interface." + id, "declared interface table is valid", true,
                          [p, o, id] { return check_interface(p, o, id); }});
    return checks;
}

std::vector<Check> suite_checks(const Plugin& plugin, const CompatOptions& options) {
    auto checks = generic_checks(plugin, options);
    auto declares = [&](const char* id) {
        return std::find(plugin->interfaces.begin(), plugin->interfaces.end(), std::string(id)) !=
               plugin->interfaces.end();
    };
    if (options.panel_target) {
        if (declares(STAND_PANEL_ID)) {
            for (auto& c : panel_checks(plugin, options, *options.panel_target)) checks.push_back(std::move(c));
        } else {
            checks.push_back({"panel.interface", "--target-config needs a plugin with stand.panel/1", false,
                              [] { return fail("the plugin does not declare " + std::string(STAND_PANEL_ID)); }});
        }
    }
    if (declares(STAND_PROXY_ID) && declares(STAND_LIFECYCLE_ID))
        for (auto& c : proxy_checks(plugin, options)) checks.push_back(std::move(c));
    return checks;
}

CompatReport run_compat(const Plugin& plugin, const CompatOptions& options,
                        const std::function<void(const CheckOutcome&)>& on_check) {
    CompatReport report;
    report.plugin_label = plugin->id;
    report.file = plugin->file;
    auto checks = suite_checks(plugin, options);
    if (!options.only_checks.empty()) {
        const auto& only = options.only_checks;
        const auto left_out = std::remove_if(checks.begin(), checks.end(), [&](const Check& c) {
            return std::find(only.begin(), only.end(), c.id) == only.end();
        });
        report.not_selected = static_cast<std::size_t>(checks.end() - left_out);
        checks.erase(left_out, checks.end());
    }
    for (auto& check : checks) {
        if (options.stop && options.stop->load()) {
            report.interrupted = true;
            break;
        }
        CheckOutcome outcome{check.id, check.description, {}};
        if (check.in_child) {
            outcome.result = run_in_child(check.run, check.timeout.count() > 0 ? check.timeout : options.timeout,
                                          options.stop);
        } else {
            auto started = std::chrono::steady_clock::now();
            outcome.result = check.run();
            outcome.result.elapsed_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
        }
        if (on_check) on_check(outcome);
        report.checks.push_back(std::move(outcome));
    }
    return report;
}

CompatReport refused_report(const loader::LoadError& error) {
    CompatReport report;
    report.plugin_label = error.file().filename().string();
    report.file = error.file();
    report.checks.push_back({"generic.load", "entry table and descriptor pass the loader's checks",
                             ChildResult{false, false, error.reason(), 0}});
    return report;
}

}  // namespace stand::compat
