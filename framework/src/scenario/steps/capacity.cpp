// capacity: the highest offered rate whose level meets an objective
// (stats/capacity_search.hpp), each level a load as the load step sends it,
// checked for a saturated generator and a disturbed machine.
#include "scenario/steps/capacity.hpp"

#include "scenario/steps/capacity_admin.hpp"

#include "detect/machine_busy.hpp"
#include "load/load_spec.hpp"
#include "scenario/steps/load_run.hpp"
#include "scenario/steps/step_keys.hpp"
#include "scenario/steps/step_kind.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stand::scenario::steps {

const StepKind& load_kind();

namespace {

namespace json = boost::json;

// What a level may be held to: the load step's metrics of the same names.
constexpr std::string_view kObjectiveMetrics[] = {"p50_ms",   "p90_ms",    "p95_ms",      "p99_ms",     "ok_p95_ms",
                                                  "ok_p99_ms", "error_pct", "late_pct",   "box_cpu_pct", "mem_max_mib"};
// Every level is held to this too: requests sent over the late threshold
// or never sent, % of those offered (the open-model-behind rule). A level
// that did not send its rate did not test it.
constexpr std::string_view kBehind = "behind_pct";
constexpr double kBehindAtMost = 1;
// A level's errors count against it whatever the objective names: a fast
// 401 is not a met latency. An objective without error_pct holds it to this.
constexpr std::string_view kErrors = "error_pct";
constexpr double kErrorsAtMost = 1;
// The curve: what each level records (besides offered_rps and met).
constexpr std::string_view kLevelMetrics[] = {"rps",        "p50_ms",      "p95_ms",      "p99_ms",
                                              "error_pct",  "late_pct",    "behind_pct",  "box_cpu_pct",
                                              "mem_max_mib", "client_cpu_pct", "client_running_pct", "client_waiting_pct"};
// What an admin_create level measures (capacity_admin.hpp), besides behind_pct.
constexpr std::string_view kAdminMeasures[] = {"p50_ms", "p90_ms", "p95_ms", "p99_ms", "error_pct", "late_pct", "behind_pct"};
// The load step's keys a level cannot take: the search sets the rate and the duration, and sends from here.
constexpr std::string_view kNotPerLevel[] = {"duration_s", "rate", "churn_per_s", "generators", "link", "from"};
constexpr double kMaxRate = 10'000'000;

std::string rate_text(double rate) {
    char text[48];
    std::snprintf(text, sizeof text, rate >= 100 ? "%.0f/s" : "%.3g/s", rate);
    return text;
}

std::vector<stats::ObjectiveLimit> read_objective(const ObjectReader& step) {
    const json::value& v = step.require("objective", "an object of limits, e.g. {\"p95_ms\": 500, \"error_pct\": 1}");
    std::vector<std::string_view> allowed(std::begin(kObjectiveMetrics), std::end(kObjectiveMetrics));
    const ObjectReader r(v, step.at("objective"), "an objective", allowed);
    std::vector<stats::ObjectiveLimit> limits;
    for (std::string_view m : kObjectiveMetrics) {
        const json::value* limit = r.find(m);
        if (limit == nullptr) continue;
        const bool zero = limit->is_number() && limit->to_number<double>() == 0;  // "no errors at all"
        limits.push_back({std::string(m), zero ? 0.0 : expect_positive(*limit, r.at(m), 1e12)});
    }
    if (limits.empty()) step.at("objective").fail("at least one limit (" + std::string(kObjectiveMetrics[0]) + ", ...)", &v);
    const bool errors_named = std::any_of(limits.begin(), limits.end(), [](const auto& l) { return l.metric == kErrors; });
    if (!errors_named) limits.push_back({std::string(kErrors), kErrorsAtMost});
    limits.push_back({std::string(kBehind), kBehindAtMost});
    return limits;
}

StepAction read_capacity(const ObjectReader& r, const StepParseContext& ctx) {
    CapacityStep c;
    if (auto target = r.string("target")) {
        if (*target != "http" && *target != "admin_create")
            r.at("target").fail("\"http\" or \"admin_create\"", r.find("target"));
        c.target = *target == "http" ? CapacityStep::Target::http : CapacityStep::Target::admin_create;
    }
    if (c.target == CapacityStep::Target::admin_create)
        for (const StepKey& k : load_kind().keys)
            if (r.find(k.name))
                r.at(k.name).fail("no HTTP load key with \"target\": \"admin_create\" (its levels create users)",
                                  r.find(k.name));
    c.load = read_load_step(r, ctx);
    if (!r.find("connections")) c.load.connections = 256;  // an open model needs rate x latency in flight
    c.plan.objective = read_objective(r);
    if (c.target == CapacityStep::Target::admin_create)
        for (const auto& limit : c.plan.objective)
            if (std::find(std::begin(kAdminMeasures), std::end(kAdminMeasures), limit.metric) == std::end(kAdminMeasures)) {
                const JsonPlace at = r.at("objective").key(limit.metric);
                at.fail_message("an admin_create level does not measure " + limit.metric +
                                " (it measures p50_ms, p90_ms, p95_ms, p99_ms, error_pct, late_pct)");
            }
    c.plan.from = expect_positive(r.require("from_rate", "requests/s, the first level"), r.at("from_rate"), kMaxRate);
    c.plan.to = expect_positive(r.require("to_rate", "requests/s, the highest level"), r.at("to_rate"), kMaxRate);
    if (c.plan.to < c.plan.from)
        r.at("to_rate").fail("a rate at least from_rate (" + describe_json(json::value(c.plan.from)) + ")", r.find("to_rate"));
    if (auto f = r.positive("factor", 100)) {
        if (*f <= 1) r.at("factor").fail("a number greater than 1", r.find("factor"));
        c.plan.factor = *f;
    }
    if (auto res = r.positive("resolution_pct", 100)) c.plan.resolution_pct = *res;
    if (auto steal = r.positive("steal_disturbs_pct", 100)) c.steal_disturbs_pct = *steal;
    if (r.find("dwell_s")) c.dwell = Seconds(expect_positive(*r.find("dwell_s"), r.at("dwell_s"), step_keys::kMaxDurationS));
    if (std::string why = load::rate_refusal(c.plan.from, c.dwell); !why.empty())  // each level: dwell_s at its rate
        r.at("from_rate").fail_message("each level lasts dwell_s (" + describe_json(json::value(c.dwell.count())) +
                                       " s): " + why);
    return c;
}

// The most levels a plan can run: up by the factor, then bisection, each
// level maybe twice (a disturbed one runs again).
std::size_t max_levels(const stats::CapacityPlan& p) {
    const double up = std::ceil(std::log(p.to / p.from) / std::log(p.factor)) + 1;
    const double halvings = std::ceil(std::log2(std::log(p.factor) / std::log1p(p.resolution_pct / 100))) + 1;
    return static_cast<std::size_t>(2 * (up + std::max(0.0, halvings)));
}

std::chrono::milliseconds capacity_timeout(const StepAction& a, std::chrono::milliseconds) {
    const auto& c = a.get<CapacityStep>();
    const double per_level_s = c.dwell.count() + 10;  // the load's own end, the sampler's window
    return step_keys::to_ms(static_cast<double>(max_levels(c.plan)) * per_level_s + 30);
}

std::vector<StepKey> capacity_keys() {
    std::vector<StepKey> keys = {
        {"objective", "object of limits, each at most: p50_ms, p90_ms, p95_ms, p99_ms, ok_p95_ms, ok_p99_ms, error_pct, "
                      "late_pct, box_cpu_pct, mem_max_mib",
         "required"},
        {"from_rate", "number > 0 (requests/s, the first level)", "required"},
        {"to_rate", "number >= from_rate (requests/s, the highest level tried)", "required"},
        {"factor", "number > 1, at most 100 (each level's rate over the last, until one fails)", "2"},
        {"resolution_pct", "number > 0, at most 100 (bisect until the first failing rate is within this of the best)", "5"},
        {"dwell_s", "number > 0, at most 86400 (each level's duration)", "10"},
        {"steal_disturbs_pct", "number > 0, at most 100 (a level during which the hypervisor stole more of the CPU "
                               "time is disturbed: a failure there runs once more)",
         "2"},
        {"target", "\"http\" (requests, as the load step sends them) or \"admin_create\" (users created through the "
                   "panel's admin API, one call at a time; no HTTP load key with it)",
         "http"}};
    for (const StepKey& k : load_kind().keys)
        if (std::find(std::begin(kNotPerLevel), std::end(kNotPerLevel), k.name) == std::end(kNotPerLevel))
            keys.push_back(k.name == "connections" ? StepKey{k.name, k.type, "256"} : k);
    return keys;
}

json::object level_json(const stats::LevelOutcome& level, const stats::LevelVerdict& verdict,
                        const std::map<std::string, double>& measured) {
    json::object o{{"offered_rps", level.offered}};
    for (std::string_view m : kLevelMetrics)
        if (auto it = measured.find(std::string(m)); it != measured.end()) o[m] = it->second;
    o["met"] = verdict.met;
    o["broke"] = verdict.broke;
    o["generator_saturated"] = !level.generator_limited.empty();
    o["generator_limited"] = level.generator_limited;
    o["disturbed"] = level.disturbed;
    return o;
}

json::object search_json(const CapacityStep& c, const stats::CapacitySearch& search, const json::array& levels) {
    json::object objective;
    for (const auto& l : c.plan.objective) objective[l.metric] = l.at_most;
    json::object o{{"objective", objective},
                   {"plan", {{"from_rate", c.plan.from}, {"to_rate", c.plan.to}, {"factor", c.plan.factor},
                             {"resolution_pct", c.plan.resolution_pct}, {"dwell_s", c.dwell.count()},
                             {"steal_disturbs_pct", c.steal_disturbs_pct},
                             {"connections", c.load.connections},
                             {"target", c.target == CapacityStep::Target::http ? "http" : "admin_create"}}},
                   {"end", stats::capacity_end_name(search.end())},
                   {"summary", search.summary()},
                   {"levels", levels}};
    o["best_rate"] = search.best() ? json::value(*search.best()) : json::value(nullptr);
    o["first_failed_rate"] = search.first_failed() ? json::value(*search.first_failed()) : json::value(nullptr);
    o["broke"] = search.broke();
    return o;
}

// Why a level that sent requests had no response at all ("452 requests, no
// response: connect refused 452"); empty when one was answered.
std::string unanswered_level(const load::LoadResult& r) {
    if (r.completed > 0 || r.sent == 0) return {};
    std::string why = std::to_string(r.sent) + " requests, no response";
    std::string reasons;
    for (std::size_t k = 0; k < load::kErrorKinds; ++k)
        for (const auto& [reason, n] : r.error_counts.by_reason[k])
            reasons += (reasons.empty() ? ": " : ", ") + reason + " " + std::to_string(n);
    return why + reasons;
}

// One HTTP level: the load step's load at `rate` for the dwell time, its
// metrics into `measured`.
GeneratorVerdict http_level(RepContext& ctx, const Step& s, const CapacityStep& c, double rate, const std::string& label,
                            std::map<std::string, double>& measured, std::string& unanswered) {
    LoadStep l = c.load;
    l.rate = rate;
    l.duration = c.dwell;
    const load::LoadSpec spec = load_spec(ctx, s, l);
    const load::LoadResult r =
        measure_load_here(ctx, s, l, spec, label, [&](const std::string& k, double v) { measured[k] = v; });
    measured["client_running_pct"] = r.cpu.percent_of_threads;
    measured["client_waiting_pct"] = r.cpu.percent_waiting;
    // Late for want of a connection (the system's answers were slow) or never sent: the system's; late with a
    // connection free: the generator's own.
    const double offered = static_cast<double>(std::max<std::uint64_t>(r.offered, 1));
    measured[std::string(kBehind)] = 100.0 * static_cast<double>(r.late - r.late_with_free_connection + r.unsent) / offered;
    unanswered = unanswered_level(r);
    return judge_generator(r);
}

void run_capacity(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& c = s.action.get<CapacityStep>();
    stats::CapacitySearch search(c.plan);
    json::array levels;
    while (const auto rate = search.next_rate()) {
        ctx.throw_if_interrupted();
        const std::string label = s.name + " at " + rate_text(*rate);
        if (ctx.env.on_step) ctx.env.on_step(label);
        const auto before = detect::read_cpu_times();
        std::map<std::string, double> measured;
        GeneratorVerdict generator;
        std::string unanswered;
        if (c.target == CapacityStep::Target::admin_create)
            measured = run_admin_create_level(ctx, s, *rate, c.dwell, levels.size() + 1, unanswered);
        else
            generator = http_level(ctx, s, c, *rate, label, measured, unanswered);
        const double steal = detect::steal_pct_between(before, detect::read_cpu_times());
        stats::LevelOutcome level;
        level.offered = *rate;
        for (const auto& limit : c.plan.objective)
            if (auto it = measured.find(limit.metric); it != measured.end()) level.values[limit.metric] = it->second;
        level.generator_limited = generator.limited;
        level.disturbed = generator.disturbed;
        level.unanswered = unanswered;
        if (steal > c.steal_disturbs_pct) {
            char text[96];
            std::snprintf(text, sizeof text, "%.1f %% of CPU time stolen by the hypervisor", steal);
            level.disturbed = text;
        }
        search.record(level);
        const auto& [recorded, verdict] = search.levels().back();
        levels.push_back(level_json(recorded, verdict, measured));
        const std::string n = std::to_string(levels.size());
        ctx.put(s.name + ".level" + n + ".offered_rps", *rate);
        ctx.put(s.name + ".level" + n + ".met", verdict.met ? 1 : 0);
        for (std::string_view m : kLevelMetrics)
            if (auto it = measured.find(std::string(m)); it != measured.end())
                ctx.put(s.name + ".level" + n + "." + std::string(m), it->second);
        ctx.record.capacity[s.name] = search_json(c, search, levels);  // a crash keeps the curve so far
    }
    if (search.best()) ctx.put(s.name + ".max_rate", *search.best());
    if (search.first_failed()) ctx.put(s.name + ".first_failed_rate", *search.first_failed());
    ctx.put(s.name + ".levels", static_cast<double>(levels.size()));
    if (search.end() != stats::CapacityEnd::limit_found)
        ctx.record.finding(detect::Finding{"capacity-not-found", ctx.scope(s), search.summary()});
    if (ctx.env.on_step) ctx.env.on_step(s.name + ": " + search.summary());
    if (search.end() == stats::CapacityEnd::target_down) throw StepFailure(s.name + ": " + search.summary());
}

}  // namespace

const StepKind& capacity_kind() {
    static const StepKind k{
        .name = "capacity",
        .summary = "finds the highest offered rate whose level meets the objective: up by the factor, then bisected; "
                   "a level where the generator saturated ends it, never taken for the system's limit",
        .interface = "stand.lifecycle/1",
        .interfaces_of = [](const StepAction& a) {
            const auto& c = a.get<CapacityStep>();
            if (c.target == CapacityStep::Target::admin_create) return std::vector<std::string_view>{"stand.panel/1"};
            return load_kind().interfaces_of(StepAction(c.load));
        },
        .keys = capacity_keys(),
        .metrics = {"max_rate", "first_failed_rate", "levels", "level<N>.offered_rps", "level<N>.met", "level<N>.rps",
                    "level<N>.p50_ms", "level<N>.p95_ms", "level<N>.p99_ms", "level<N>.error_pct", "level<N>.late_pct",
                    "level<N>.behind_pct",
                    "level<N>.box_cpu_pct", "level<N>.mem_max_mib", "level<N>.client_cpu_pct",
                    "level<N>.client_running_pct", "level<N>.client_waiting_pct"},
        .timeout = std::chrono::seconds(3600),
        .parse = read_capacity,
        .timeout_of = capacity_timeout,
        .run = run_capacity};
    return k;
}

}  // namespace stand::scenario::steps

namespace stand::scenario {

GeneratorVerdict judge_generator(const load::LoadResult& r) {
    const double offered = static_cast<double>(std::max<std::uint64_t>(r.offered, 1));
    const double late_pct = 100.0 * static_cast<double>(r.late_with_free_connection) / offered;
    GeneratorVerdict v;
    char why[220] = "";
    if (r.generator_saturated) {
        std::snprintf(why, sizeof why, "its threads ran %.0f %% and waited for a CPU %.0f %% of the time",
                      r.cpu.percent_of_threads, r.cpu.percent_waiting);
        v.limited = why;
    } else if (late_pct > 1 && r.late_with_free_connection >= kLateSendsDisturb) {
        std::snprintf(why, sizeof why,
                      "the generator sent %.1f %% of the requests over %.0f ms late with a connection free, though "
                      "its threads ran %.0f %% and waited for a CPU %.0f %% of the time",
                      late_pct, r.late_threshold_ms, r.cpu.percent_of_threads, r.cpu.percent_waiting);
        v.disturbed = why;
    }
    return v;
}

}  // namespace stand::scenario
