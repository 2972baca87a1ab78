#include "scenario/scenario_parser.hpp"

#include "fleet/fleet_error.hpp"

#include "box/cpu_list.hpp"
#include "scenario/check_parser.hpp"
#include "scenario/json_reader.hpp"
#include "scenario/json_text.hpp"
#include "scenario/step_metrics.hpp"
#include "scenario/spread_ratio_parser.hpp"
#include "scenario/threshold_parser.hpp"
#include "scenario/step_parser.hpp"
#include "scenario/steps/load.hpp"
#include "scenario/steps/step_kind.hpp"
#include "scenario/table_parser.hpp"
#include "scenario/value_syntax.hpp"
#include "text/text_file.hpp"

#include <boost/asio/ip/address.hpp>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>

namespace stand::scenario {
namespace {

namespace json = boost::json;

constexpr std::uint64_t kMaxMib = std::uint64_t(1) << 30;
constexpr double kMaxVcpu = 4096;
constexpr std::string_view kNameSyntax = "a name of letters, digits, '_' and '-' (at most 64)";

std::string json_quote(std::string_view s) { return json::serialize(json::string_view(s.data(), s.size())); }

BoxSpec::Io parse_io(const json::value& v, const JsonPlace& place) {
    constexpr std::uint64_t kMaxIops = 100'000'000;
    constexpr double kMaxMibS = 1'000'000;
    const ObjectReader r(v, place, "an io limit", {"path", "read_iops", "write_iops", "read_mib_s", "write_mib_s"});
    BoxSpec::Io io;
    io.path = expect_string(r.require("path", "a directory on the disk to throttle"), r.at("path"), true);
    io.read_iops = r.uint("read_iops", 1, kMaxIops);
    io.write_iops = r.uint("write_iops", 1, kMaxIops);
    auto bps = [](std::optional<double> mib_s) -> std::optional<std::uint64_t> {
        if (!mib_s) return std::nullopt;
        return static_cast<std::uint64_t>(std::llround(*mib_s * 1048576.0));
    };
    io.read_bps = bps(r.positive("read_mib_s", kMaxMibS));
    io.write_bps = bps(r.positive("write_mib_s", kMaxMibS));
    if (!io.read_iops && !io.write_iops && !io.read_bps && !io.write_bps)
        place.fail("at least one of read_iops, write_iops, read_mib_s, write_mib_s", nullptr);
    return io;
}

BoxSpec parse_box(const json::value& v, const JsonPlace& place) {
    const ObjectReader r(v, place, "a box", {"vcpu", "memory_mib", "swap_mib", "pin", "io"});
    BoxSpec box;
    box.vcpu = r.positive("vcpu", kMaxVcpu);
    if (auto mib = r.uint("memory_mib", 1, kMaxMib)) box.memory_bytes = *mib << 20;
    if (auto mib = r.uint("swap_mib", 0, kMaxMib)) box.swap_bytes = *mib << 20;
    if (const json::value* pin = r.find("pin")) {
        const auto cpus = pin->is_string() ? box::parse_cpu_list(pin->get_string()) : std::nullopt;
        if (!cpus || cpus->empty()) r.at("pin").fail("a CPU list such as \"0\", \"0-1\" or \"0,2\"", pin);
        if (box.vcpu && *box.vcpu > static_cast<double>(cpus->size()))
            r.at("vcpu").fail("at most the " + std::to_string(cpus->size()) + " CPUs of pin " +
                                  json_quote(pin->get_string()),
                              r.find("vcpu"));
        // The CPUs must exist here: writing one that does not to cpuset.cpus fails only when the box is made.
        if (const auto online = box::online_cpus())
            for (unsigned cpu : *cpus)
                if (!online->contains(cpu))
                    r.at("pin").fail("CPUs this machine has (online: " + box::format_cpu_list(*online) + ")", pin);
        box.pin = std::string(pin->get_string());
    }
    if (const json::value* io = r.find("io")) box.io = parse_io(*io, r.at("io"));
    return box;
}

PluginRef parse_plugin(const json::value& v, const JsonPlace& place) {
    PluginRef plugin;
    const json::value* id = &v;
    JsonPlace id_place = place;
    std::optional<ObjectReader> r;
    if (!v.is_string()) {
        if (!v.is_object()) place.fail("a plugin id or {\"id\": ..., \"config\": {...}, \"label\": ...}", &v);
        r.emplace(v, place, "a plugin", std::vector<std::string_view>{"id", "config", "label"});
        id = &r->require("id", "a plugin id");
        id_place = r->at("id");
    }
    plugin.id = expect_string(*id, id_place, true);
    if (!is_plugin_reference(plugin.id))
        id_place.fail("a plugin id (lowercase letters, digits, '.', '_', '-') or a path to a .so file", id);
    plugin.label = default_label(plugin.id);
    if (r) {
        if (const json::value* config = r->find("config")) plugin.config = expect_object(*config, r->at("config"));
        if (auto label = r->string("label")) {
            if (!is_valid_label(*label))
                r->at("label").fail("a label of 1 to 64 letters, digits, '_', '-' and '.', not starting with '.'",
                                    r->find("label"));
            plugin.label = *label;
        }
    }
    if (!is_valid_label(plugin.label))
        id_place.fail("a plugin whose file name makes a label (letters, digits, '_', '-', '.'), or a \"label\"", id);
    return plugin;
}

std::vector<PluginRef> parse_plugins(const json::value& v, const JsonPlace& place) {
    std::vector<PluginRef> plugins;
    std::map<std::string, std::string> label_owner;
    const json::array& list = expect_array(v, place, true);
    for (std::size_t i = 0; i < list.size(); ++i) {
        plugins.push_back(parse_plugin(list[i], place.index(i)));
        auto [it, fresh] = label_owner.emplace(plugins.back().label, place.index(i).path());
        if (fresh) continue;
        const bool explicit_label = list[i].is_object() && list[i].get_object().contains("label");
        (explicit_label ? place.index(i).key("label") : place.index(i))
            .fail_message("expected a label no other plugin has (add \"label\" to tell them apart), got " +
                          json_quote(plugins.back().label) + ", the label of " + it->second);
    }
    return plugins;
}

Order parse_order(const json::value& v, const JsonPlace& place) {
    constexpr std::string_view kExpected = "\"rotate\", \"fixed\" or {\"shuffle_seed\": N}";
    Order order;
    if (v.is_string() && v.get_string() == "rotate") order.mode = OrderMode::kRotate;
    else if (v.is_string() && v.get_string() == "fixed") order.mode = OrderMode::kFixed;
    else if (v.is_object()) {
        const ObjectReader r(v, place, "order", {"shuffle_seed"});
        order.mode = OrderMode::kShuffle;
        order.seed = expect_uint(r.require("shuffle_seed", "a non-negative integer"), r.at("shuffle_seed"), 0,
                                 std::numeric_limits<std::uint64_t>::max());
    } else place.fail(kExpected, &v);
    return order;
}

std::vector<Phase> parse_phases(const json::value& v, const JsonPlace& place, bool allow_remote) {
    std::vector<Phase> phases;
    KindCounter counter;
    std::set<std::string> phase_names;
    std::map<std::string, std::string> step_owner;  // name -> path of the step
    const json::array& list = expect_array(v, place, true);
    for (std::size_t i = 0; i < list.size(); ++i) {
        const ObjectReader r(list[i], place.index(i), "a phase", {"name", "steps"});
        Phase phase;
        const json::value& name = r.require("name", kNameSyntax);
        phase.name = expect_string(name, r.at("name"), true);
        if (!is_valid_name(phase.name)) r.at("name").fail(kNameSyntax, &name);
        if (!phase_names.insert(phase.name).second) r.at("name").fail("a name no other phase has", &name);

        const json::array& steps = expect_array(r.require("steps", "a non-empty array"), r.at("steps"), true);
        for (std::size_t j = 0; j < steps.size(); ++j) {
            const JsonPlace step_place = r.at("steps").index(j);
            phase.steps.push_back(parse_step(steps[j], step_place, counter, allow_remote));
            const Step& step = phase.steps.back();
            auto [it, fresh] = step_owner.emplace(step.name, step.json_path);
            if (fresh) continue;
            const bool named = steps[j].get_object().contains("name");
            (named ? step_place.key("name") : step_place)
                .fail_message(std::string("expected a step name no other step has (") +
                              (named ? "" : "add \"name\"; ") + "it prefixes the step's metrics), got " +
                              (named ? "" : "the default name ") + json_quote(step.name) + ", the name of " + it->second);
        }
        phases.push_back(std::move(phase));
    }
    return phases;
}

constexpr std::uint64_t kMaxRepetitions = 1000;

// A number (exactly that many) or {"min", "max", "until": {"metric", "ci_width_pct"}}.
void parse_repetitions(const json::value& v, const JsonPlace& place, Scenario& s) {
    if (!v.is_object()) {
        if (!v.is_number())
            place.fail("a positive integer up to 1000 or {\"min\": N, \"max\": N, \"until\": {\"metric\": ..., "
                       "\"ci_width_pct\": x}}",
                       &v);
        s.repetitions = static_cast<std::uint32_t>(expect_uint(v, place, 1, kMaxRepetitions));
        return;
    }
    const ObjectReader r(v, place, "adaptive repetitions", {"min", "max", "until"});
    AdaptiveRepetitions a;
    a.min = static_cast<std::uint32_t>(
        expect_uint(r.require("min", "a positive integer up to 1000"), r.at("min"), 1, kMaxRepetitions));
    const json::value& max = r.require("max", "an integer from min to 1000");
    s.repetitions = static_cast<std::uint32_t>(expect_uint(max, r.at("max"), 1, kMaxRepetitions));
    if (s.repetitions < a.min) r.at("max").fail("an integer ≥ min (" + std::to_string(a.min) + ")", &max);
    const ObjectReader until(r.require("until", "{\"metric\": ..., \"ci_width_pct\": x}"), r.at("until"),
                             "the stopping rule", {"metric", "ci_width_pct"});
    const json::value& metric = until.require("metric", "a metric name such as \"tick.slept_ms\"");
    a.metric = expect_string(metric, until.at("metric"), true);
    if (!phases_produce_metric(s.phases, a.metric))
        until.at("metric").fail("a metric produced by a step (" + unknown_metric_hint(a.metric, s.phases) + ")",
                                &metric);
    const json::value& width = until.require("ci_width_pct", "a positive number up to 1000");
    a.ci_width_pct = expect_positive(width, until.at("ci_width_pct"), 1000);
    s.adaptive = std::move(a);
}

BackendSpec parse_backend(const json::value& v, const JsonPlace& place) {
    const ObjectReader r(v, place, "the backend", {"body_bytes", "threads", "host"});
    BackendSpec b;
    if (auto n = r.uint("body_bytes", 0, 1 << 20)) b.body_bytes = static_cast<std::uint32_t>(*n);
    if (auto n = r.uint("threads", 1, 64)) b.threads = static_cast<std::uint32_t>(*n);
    if (auto url = r.string("host")) {
        try {
            b.host = fleet::parse_host_arg("backend=" + *url);
        } catch (const fleet::FleetError& e) {
            r.at("host").fail_message(e.what());
        }
        boost::system::error_code ec;
        boost::asio::ip::make_address(b.host->address, ec);
        if (ec) r.at("host").fail("an IP address in the URL (the system under test is given it as its upstream)", r.find("host"));
    }
    return b;
}

// "hosts": {"NAME": "ssh://USER@ADDRESS[:PORT]"}, each read as --host NAME=URL is.
std::vector<fleet::SshTarget> parse_hosts(const json::value& v, const JsonPlace& place) {
    std::vector<fleet::SshTarget> hosts;
    for (const auto& [name, url] : expect_object(v, place)) {
        const JsonPlace at = place.key(name);
        try {
            hosts.push_back(fleet::parse_host_arg(std::string(name) + "=" + expect_string(url, at, true)));
        } catch (const fleet::FleetError& e) {
            at.fail_message(e.what());
        }
    }
    return hosts;
}

// A load step's "generators" name hosts of the scenario's "generators".
void check_step_generators(const Scenario& s) {
    std::string names;
    for (const auto& g : s.generators) names += (names.empty() ? "" : ", ") + json_quote(g.name);
    for (const auto& phase : s.phases)
        for (const auto& step : phase.steps) {
            if (step.kind != "load") continue;
            const auto& wanted = step.action.get<LoadStep>().generators;
            for (std::size_t i = 0; i < wanted.size(); ++i) {
                bool found = false;
                for (const auto& g : s.generators) found = found || g.name == wanted[i];
                if (!found)
                    throw ScenarioError(s.file, step.json_path + ".generators[" + std::to_string(i) + "]",
                                        "expected the name of one of the scenario's \"generators\" (" +
                                            (names.empty() ? std::string("it has none") : names) + "), got " +
                                            json_quote(wanted[i]));
            }
        }
}

// A step that uses created users (a tunnel's, the accounting's, the
// revoked one's) names only users the create_users steps before it create:
// user i is the i-th created, counted over every plugin's steps.
void check_created_users(const Scenario& s) {
    std::uint64_t created = 0;
    for (const auto& phase : s.phases)
        for (const auto& step : phase.steps) {
            const StepKind* kind = find_step_kind(step.kind);
            if (kind == nullptr) continue;
            if (kind->users_created) created += kind->users_created(step.action);
            const std::uint32_t needed = kind->users_needed ? kind->users_needed(step.action) : 0;
            if (needed == 1 && created == 0)
                throw ScenarioError(s.file, step.json_path,
                                    step.kind + " " + json_quote(step.name) +
                                        " uses the created users, but no create_users step comes before it");
            if (needed > created)
                throw ScenarioError(s.file, step.json_path,
                                    step.kind + " " + json_quote(step.name) + " uses users up to index " +
                                        std::to_string(needed - 1) + ", but the create_users steps before it create " +
                                        std::to_string(created) + (created == 1 ? " user" : " users") +
                                        " (indices from 0): create more, or name fewer");
        }
}

Scenario parse_root(const json::value& root, const std::filesystem::path& file) {
    const JsonPlace place(file);
    const json::object& object = expect_object(root, place);
    // First, so that a file of a later format says so rather than tripping over a new key.
    const json::value* version = object.if_contains("schema_version");
    if (version == nullptr || !version->is_number() || version->to_number<double>() != 1)
        place.key("schema_version").fail("1", version);

    const ObjectReader r(root, place, "a scenario",
                         {"schema_version", "name", "description", "plugins", "box", "client", "repetitions", "order",
                          "sample_interval_ms", "allow_remote", "backend", "placement", "phases", "tables", "checks",
                          "thresholds", "spread_ratios", "hosts", "generators"});
    Scenario s;
    s.file = file;
    s.name = expect_string(r.require("name", "a non-empty string"), r.at("name"), true);
    if (const json::value* d = r.find("description")) s.description = expect_string(*d, r.at("description"), false);
    s.plugins = parse_plugins(r.require("plugins", "a non-empty array"), r.at("plugins"));
    if (const json::value* box = r.find("box")) s.box = parse_box(*box, r.at("box"));
    if (const json::value* client = r.find("client")) s.client = parse_box(*client, r.at("client"));
    if (const json::value* order = r.find("order")) s.order = parse_order(*order, r.at("order"));
    if (auto ms = r.uint("sample_interval_ms", 10, 60000)) s.sample_interval = std::chrono::milliseconds(*ms);
    if (auto allow = r.boolean("allow_remote")) s.allow_remote = *allow;
    if (const json::value* backend = r.find("backend")) s.backend = parse_backend(*backend, r.at("backend"));
    if (auto placement = r.string("placement")) {
        if (*placement != "auto" && *placement != "none")
            r.at("placement").fail("\"auto\" (disjoint CPUs for the box, the backend and the generator) or \"none\"",
                                   r.find("placement"));
        s.auto_placement = *placement == "auto";
        if (s.auto_placement && s.box.pin)
            r.at("placement").fail("\"none\" when box.pin is given (auto placement sets the box's CPUs)",
                                   r.find("placement"));
    }
    if (const json::value* hosts = r.find("hosts")) s.hosts = parse_hosts(*hosts, r.at("hosts"));
    if (const json::value* generators = r.find("generators"))
        s.generators = parse_hosts(*generators, r.at("generators"));
    s.phases = parse_phases(r.require("phases", "a non-empty array"), r.at("phases"), s.allow_remote);
    check_step_generators(s);
    check_created_users(s);
    // After the phases: an adaptive rule names one of their metrics.
    if (const json::value* reps = r.find("repetitions")) parse_repetitions(*reps, r.at("repetitions"), s);
    if (const json::value* tables = r.find("tables")) s.tables = parse_tables(*tables, r.at("tables"), s.phases);
    if (const json::value* checks = r.find("checks")) s.checks = parse_checks(*checks, r.at("checks"), s.phases);
    if (const json::value* thresholds = r.find("thresholds"))
        s.thresholds = parse_thresholds(*thresholds, r.at("thresholds"), s.phases);
    if (const json::value* spreads = r.find("spread_ratios"))
        s.spread_ratios = parse_spread_ratios(*spreads, r.at("spread_ratios"), s.phases);
    return s;
}

}  // namespace

Scenario parse_scenario_text(std::string_view text, const std::filesystem::path& file_for_messages,
                             const ParamOverrides& params) {
    auto root = parse_json_text(text, file_for_messages);
    ParamSources sources;
    auto used = apply_scenario_params(root, params, file_for_messages, &sources);
    auto s = parse_root(root, file_for_messages);
    s.params = std::move(used);
    s.param_sources = std::move(sources);
    s.text = std::string(text);
    return s;
}

bool uses_generators(const Scenario& s) {
    for (const auto& phase : s.phases)
        for (const auto& step : phase.steps)
            if (step.kind == "load" && !step.action.get<LoadStep>().generators.empty()) return true;
    return false;
}

namespace {

// A threshold's "plugins" name labels of this run (after --plugin).
void check_threshold_plugins(const Scenario& s, const std::string& labels) {
    for (std::size_t i = 0; i < s.thresholds.size(); ++i) {
        const auto& plugins = s.thresholds[i].as_object().at("plugins").as_array();
        for (std::size_t j = 0; j < plugins.size(); ++j) {
            const std::string label(plugins[j].as_string());
            bool found = false;
            for (const auto& p : s.plugins) found = found || p.label == label;
            if (!found)
                throw ScenarioError(s.file, "$.thresholds[" + std::to_string(i) + "].plugins[" + std::to_string(j) + "]",
                                    "expected the label of a plugin of this run (" + labels + "), got " +
                                        json_quote(label));
        }
    }
}

}  // namespace

void check_step_plugins(const Scenario& s) {
    std::string labels;
    for (const auto& p : s.plugins) labels += (labels.empty() ? "" : ", ") + json_quote(p.label);
    for (const auto& phase : s.phases)
        for (const auto& step : phase.steps) {
            if (step.plugin.empty()) continue;
            bool found = false;
            for (const auto& p : s.plugins) found = found || p.label == step.plugin;
            if (!found)
                throw ScenarioError(s.file, step.json_path + ".plugin",
                                    "expected the label of a plugin of this run (" + labels + "), got " +
                                        json_quote(step.plugin));
        }
    check_threshold_plugins(s, labels);
    if (s.adaptive)
        for (const auto& p : s.plugins) {
            bool produced = false;
            for (const auto& phase : s.phases)
                for (const auto& step : phase.steps)
                    produced = produced || ((step.plugin.empty() || step.plugin == p.label) &&
                                            produces_metric(step, s.adaptive->metric));
            if (!produced)
                throw ScenarioError(s.file, "$.repetitions.until.metric",
                                    "no step that runs for plugin " + json_quote(p.label) + " produces " +
                                        json_quote(s.adaptive->metric) + " (the step's \"plugin\" leaves it out)");
        }
}

Scenario parse_scenario_file(const std::filesystem::path& file, const ParamOverrides& params) {
    std::string text;
    try {
        text = text::read_input_file(file);
    } catch (const text::TextFileError& e) {
        std::string why = e.what();  // "cannot read FILE: why"; the error names the file once
        if (const std::string prefix = "cannot read " + file.string() + ": "; why.starts_with(prefix))
            why.erase(0, prefix.size());
        throw ScenarioError(file, "", "cannot read the file: " + why);
    }
    return parse_scenario_text(text, file, params);
}

}  // namespace stand::scenario
