#include "scenario/steps/dashboard_poll.hpp"

#include "host/http/target_resolver.hpp"
#include "host/http/url.hpp"
#include "text/secrets.hpp"

#include <algorithm>
#include <set>
#include <thread>

namespace stand::scenario {
namespace {

namespace json = boost::json;

constexpr std::size_t kMaxRequests = 32;
constexpr double kMaxPeriodS = 3600;

[[noreturn]] void refuse(const std::string& what) {
    throw StepFailure("panel.dashboard_requests returned " + what + " (sdk/include/stand/ext/panel.h says what it must)");
}

std::string text_of(const json::object& o, const char* key, std::size_t i) {
    const auto* v = o.if_contains(key);
    if (v == nullptr || !v->is_string() || v->get_string().empty())
        refuse("request " + std::to_string(i) + " without a \"" + key + "\" string");
    return std::string(v->get_string());
}

load::Link link_of(const json::object& o, std::size_t i, bool allow_remote) {
    load::Link link;
    link.method = text_of(o, "method", i);
    link.url = text_of(o, "url", i);
    host::http::Url url;
    try {
        url = host::http::parse_url(link.url, "url");
    } catch (const std::exception& e) {
        refuse("request " + std::to_string(i) + " with a URL that is not one: " + e.what());
    }
    if (!allow_remote && !host::http::is_local_host(url.host))
        refuse("request " + std::to_string(i) + " to " + url.host + ", not a loopback address (set allow_remote)");
    if (const auto* h = o.if_contains("headers")) {
        if (!h->is_object()) refuse("request " + std::to_string(i) + " whose headers are not an object");
        for (const auto& [name, value] : h->get_object()) {
            if (!value.is_string()) refuse("request " + std::to_string(i) + " with a header that is not a string");
            text::secrets().add(value.get_string());  // a signed-in session
            link.headers.emplace_back(std::string(name), std::string(value.get_string()));
        }
    }
    if (const auto* b = o.if_contains("body")) {
        if (!b->is_string()) refuse("request " + std::to_string(i) + " whose body is not a string");
        link.body = std::string(b->get_string());
    }
    return link;
}

DashboardLoad plan_one(const json::object& o, std::size_t i, const DashboardPlan& plan) {
    DashboardLoad d;
    d.page = text_of(o, "page", i);
    d.name = text_of(o, "name", i);
    const auto name_char = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_'; };
    const bool name_ok = !d.name.empty() && d.name.size() <= 40 && std::all_of(d.name.begin(), d.name.end(), name_char);
    if (!name_ok) refuse("request name '" + d.name.substr(0, 60) + "' (expected [a-z0-9_], 1-40)");
    const auto* every = o.if_contains("every_s");
    if (every == nullptr || !every->is_number() || !(every->to_number<double>() > 0) ||
        every->to_number<double>() > kMaxPeriodS)
        refuse("request '" + d.name + "' without every_s in (0, 3600]");
    d.every_s = every->to_number<double>();
    d.spec.links.push_back(link_of(o, i, plan.allow_remote));
    d.spec.model = load::Model::open;
    d.spec.rate = plan.dashboards / d.every_s;
    d.spec.connections = plan.dashboards;
    d.spec.threads = 1;
    d.spec.duration = plan.duration;
    d.spec.timeout = std::chrono::seconds(30);
    d.spec.allow_remote = plan.allow_remote;
    d.spec.cpus = plan.cpus;
    d.spec.slow_threshold = std::chrono::seconds(1);
    return d;
}

json::object summary_of(const DashboardLoad& d, const load::LoadResult& r) {
    json::object o{{"page", d.page}, {"name", d.name}, {"every_s", d.every_s}, {"rate", d.spec.rate},
                   {"connections", d.spec.connections}, {"offered", r.offered}, {"late", r.late},
                   {"completed", r.completed}, {"ok", r.ok_count()}, {"errors", r.errors}, {"error_pct", r.error_pct()}};
    if (auto it = r.latency.find("all"); it != r.latency.end() && it->second.count() > 0) {
        o["p50_ms"] = double(it->second.value_at_percentile(50)) / 1000.0;
        o["p95_ms"] = double(it->second.value_at_percentile(95)) / 1000.0;
        o["max_ms"] = double(it->second.max()) / 1000.0;
    }
    if (!r.status_counts.empty()) {
        json::object statuses;
        for (const auto& [status, count] : r.status_counts) statuses[std::to_string(status)] = count;
        o["statuses"] = std::move(statuses);
    }
    return o;
}

}  // namespace

std::vector<DashboardLoad> dashboard_loads(const json::value& answer, const DashboardPlan& plan) {
    const auto* requests = answer.is_object() ? answer.as_object().if_contains("requests") : nullptr;
    if (requests == nullptr || !requests->is_array() || requests->as_array().empty() ||
        requests->as_array().size() > kMaxRequests)
        refuse("no {\"requests\": [1 to 32 requests]}");
    std::vector<DashboardLoad> loads;
    std::set<std::string> names;
    for (std::size_t i = 0; i < requests->as_array().size(); ++i) {
        const auto& r = requests->as_array()[i];
        if (!r.is_object()) refuse("request " + std::to_string(i) + " that is not an object");
        loads.push_back(plan_one(r.as_object(), i, plan));
        if (!names.insert(loads.back().name).second) refuse("the request name '" + loads.back().name + "' twice");
        try {
            loads.back().spec.validate();
        } catch (const load::LoadSpecError& e) {
            refuse("request '" + loads.back().name + "' that cannot be sent: " + e.what());
        }
    }
    return loads;
}

std::vector<DashboardLoad> plan_dashboards(RepContext& ctx, const Step& s, unsigned dashboards,
                                           std::chrono::nanoseconds duration) {
    json::value answer;
    try {
        answer = ctx.must(ctx.port.dashboard_requests(s.timeout));
    } catch (const StepFailure& e) {
        throw StepFailure(std::string("dashboards: ") + e.what());
    }
    return dashboard_loads(answer, {dashboards, duration, ctx.env.scenario.allow_remote, ctx.env.generator_cpus});
}

DashboardOutcome run_dashboards(const RepContext& ctx, const std::vector<DashboardLoad>& loads) {
    std::vector<load::LoadResult> results(loads.size());
    std::vector<std::string> errors(loads.size());
    {
        std::vector<std::jthread> threads;
        for (std::size_t i = 0; i < loads.size(); ++i)
            threads.emplace_back([&, i] {
                load::LoadHooks hooks;
                hooks.stop = &ctx.env.interrupted;
                try {
                    results[i] = load::run_load(loads[i].spec, hooks);
                } catch (const std::exception& e) {
                    errors[i] = e.what();
                }
            });
    }
    load::HdrHistogram all;
    std::uint64_t completed = 0, attempts = 0, ok = 0;
    double elapsed = 0;
    json::array requests;
    for (std::size_t i = 0; i < loads.size(); ++i) {
        auto entry = summary_of(loads[i], results[i]);
        if (!errors[i].empty()) entry["error"] = errors[i];
        ok += results[i].ok_count();
        requests.push_back(std::move(entry));
        const auto& r = results[i];
        completed += r.completed;
        attempts += r.completed + r.errors;
        elapsed = std::max(elapsed, r.elapsed_s);
        if (auto it = r.latency.find("all"); it != r.latency.end()) all.merge(it->second);
    }
    DashboardOutcome out;
    const auto put = [&](const char* m, double v) { out.metrics.emplace_back(std::string("dash_") + m, v); };
    put("rps", elapsed > 0 ? double(completed) / elapsed : 0);
    put("error_pct", attempts ? 100.0 * double(attempts - ok) / double(attempts) : 0);
    if (all.count() > 0) {
        put("p50_ms", double(all.value_at_percentile(50)) / 1000.0);
        put("p95_ms", double(all.value_at_percentile(95)) / 1000.0);
        put("max_ms", double(all.max()) / 1000.0);
    }
    out.record = {{"dashboards", loads.empty() ? 0u : loads.front().spec.connections}, {"requests", std::move(requests)}};
    return out;
}

}  // namespace stand::scenario
