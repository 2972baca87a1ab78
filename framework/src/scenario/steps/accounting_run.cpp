#include "scenario/steps/accounting_run.hpp"

#include "scenario/steps/accounting.hpp"
#include "scenario/steps/tunnel_run.hpp"
#include "tunnel/many_clients.hpp"
#include "tunnel/tunnel_spec.hpp"

#include <stand/stand.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <vector>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;
constexpr double kMiB = 1024.0 * 1024.0;

// One user's traffic as the panel counts it (user_traffic's answer).
struct Count {
    std::uint64_t total = 0;
    std::optional<std::uint64_t> up, down;
    bool operator==(const Count&) const = default;
};

std::optional<std::uint64_t> count_field(const json::object& o, const char* key) {
    const auto* v = o.if_contains(key);
    if (v == nullptr) return std::nullopt;
    if (v->is_uint64()) return v->as_uint64();
    if (v->is_int64() && v->as_int64() >= 0) return static_cast<std::uint64_t>(v->as_int64());
    throw std::invalid_argument(std::string(key) + " is not a count of bytes");
}

Count read_count(RepContext& ctx, const Step& s, const RepUser& u) {
    const auto reply = ctx.port.user_traffic(u.id, std::chrono::seconds(30));
    if (!reply.ok())
        throw StepFailure("step " + s.name + ": panel.user_traffic(" + u.id + "): " +
                          (reply.error.empty() ? std::string(stand_result_name(reply.code)) : reply.error));
    const json::value& v = reply.output;
    try {
        if (!v.is_object()) throw std::invalid_argument("not a JSON object");
        Count c;
        const auto total = count_field(v.as_object(), "total_bytes");
        if (!total) throw std::invalid_argument("no total_bytes");
        c.total = *total;
        c.up = count_field(v.as_object(), "up_bytes");
        c.down = count_field(v.as_object(), "down_bytes");
        return c;
    } catch (const std::invalid_argument& e) {
        throw StepFailure("step " + s.name + ": panel.user_traffic(" + u.id + ") answered " + json::serialize(v) +
                          ": " + e.what() + " (the SDK's panel.h states the answer)");
    }
}

std::vector<Count> read_counts(RepContext& ctx, const Step& s, const AccountingStep& a) {
    std::vector<Count> out;
    for (std::uint32_t i = 0; i < a.users; ++i) out.push_back(read_count(ctx, s, ctx.state.users[a.source.user + i]));
    return out;
}

std::uint64_t moved(const tunnel::ClientTransfer& t) { return t.up + t.down; }

// The panel's count of user i since `before` over the bytes stand moved.
double ratio_of(const Count& before, const Count& now, const tunnel::ClientTransfer& t) {
    const double counted = now.total >= before.total ? static_cast<double>(now.total - before.total) : -1.0;
    return moved(t) > 0 ? counted / static_cast<double>(moved(t)) : 0;
}

bool all_within(const AccountingStep& a, const std::vector<Count>& before, const std::vector<Count>& now,
                const std::vector<tunnel::ClientTransfer>& transfers) {
    for (std::size_t i = 0; i < now.size(); ++i)
        if (transfers[i].ok && std::abs(ratio_of(before[i], now[i], transfers[i]) - 1) * 100 > a.tolerance_pct)
            return false;
    return true;
}

// What the polls after the transfer saw (times from its end).
struct Polls {
    std::vector<Count> last;
    std::optional<double> settle_s;       // every count right, and the next poll the same
    std::optional<double> last_change_s;  // the first poll that saw the counts' last change
    std::vector<double> poll_ms;
    json::array history;                  // {t_s, panel_bytes}: the sum of every user's count since before
};

Polls poll_until_settled(RepContext& ctx, const Step& s, const AccountingStep& a, const std::vector<Count>& before,
                         const std::vector<tunnel::ClientTransfer>& transfers) {
    const auto transfer_end = RepClock::now();
    Polls p;
    p.last = before;
    std::optional<double> right_since;
    for (;;) {
        const auto started = RepClock::now();
        const double t = std::chrono::duration<double>(started - transfer_end).count();
        std::vector<Count> now = read_counts(ctx, s, a);
        p.poll_ms.push_back(std::chrono::duration<double, std::milli>(RepClock::now() - started).count());
        const bool changed = now != p.last;
        if (changed) p.last_change_s = t;
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < now.size(); ++i) sum += now[i].total - std::min(now[i].total, before[i].total);
        p.history.push_back(json::object{{"t_s", t}, {"panel_bytes", sum}});
        p.last = std::move(now);
        if (all_within(a, before, p.last, transfers)) {
            if (right_since && !changed) {
                p.settle_s = right_since;
                return p;
            }
            if (changed || !right_since) right_since = t;
        } else {
            right_since.reset();
        }
        if (RepClock::now() - transfer_end >= a.settle_within) return p;
        const auto next = started + std::chrono::duration_cast<RepClock::duration>(a.poll_every);
        if (const auto left = next - RepClock::now(); left > RepClock::duration::zero())
            ctx.sleep_for(std::chrono::duration_cast<Seconds>(left));
    }
}

tunnel::ManyClientsResult transfer(RepContext& ctx, const Step& s, const AccountingStep& a,
                                   std::vector<hysteria::HysteriaLink> links) {
    tunnel::ManyClientsSpec spec;
    spec.links = std::move(links);
    spec.sink = tunnel_sink(ctx, s, a.source);
    spec.fetch_bytes = static_cast<std::uint64_t>(std::llround(a.mib_per_user * kMiB));
    spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.transfer_within);
    spec.ramp = std::chrono::duration_cast<std::chrono::nanoseconds>(a.ramp);
    spec.congestion_control = a.source.cc;
    spec.allow_remote = ctx.env.scenario.allow_remote;
    try {
        return tunnel::run_many_clients(spec, &ctx.env.interrupted);
    } catch (const tunnel::RemoteServerError& e) {
        throw StepFailure("step " + s.name + ": " + remote_server_problem(ctx, s, e, spec.links.front()));
    } catch (const std::exception& e) {
        throw StepFailure("step " + s.name + ": " + e.what());
    }
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Per user, in loads.<step>.users: what stand moved and what the panel counted.
json::array user_rows(const RepContext& ctx, const AccountingStep& a, const std::vector<Count>& before,
                      const Polls& p, const std::vector<tunnel::ClientTransfer>& transfers) {
    json::array rows;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        json::object row{{"user", a.source.user + i}, {"id", ctx.state.users[a.source.user + i].id},
                         {"downloaded", transfers[i].ok}, {"stand_up_bytes", transfers[i].up},
                         {"stand_down_bytes", transfers[i].down}, {"panel_before_bytes", before[i].total},
                         {"panel_after_bytes", p.last[i].total}};
        if (p.last[i].up && before[i].up) row["panel_up_bytes"] = *p.last[i].up - std::min(*p.last[i].up, *before[i].up);
        if (p.last[i].down && before[i].down)
            row["panel_down_bytes"] = *p.last[i].down - std::min(*p.last[i].down, *before[i].down);
        if (transfers[i].ok) row["ratio"] = ratio_of(before[i], p.last[i], transfers[i]);
        rows.push_back(std::move(row));
    }
    return rows;
}

// The panel's count against stand's over the users whose download completed.
void put_ratios(RepContext& ctx, const Step& s, const AccountingStep& a, const std::vector<Count>& before,
                const Polls& p, const std::vector<tunnel::ClientTransfer>& transfers) {
    std::vector<double> ratios;
    double stand = 0, panel = 0, stand_up = 0, stand_down = 0, panel_up = 0, panel_down = 0;
    bool directions = true;
    std::uint64_t off = 0, uncounted = 0;
    for (std::size_t i = 0; i < transfers.size(); ++i) {
        if (!transfers[i].ok) continue;
        const double r = ratio_of(before[i], p.last[i], transfers[i]);
        ratios.push_back(r);
        stand += static_cast<double>(moved(transfers[i]));
        panel += static_cast<double>(p.last[i].total - std::min(p.last[i].total, before[i].total));
        off += std::abs(r - 1) * 100 > a.tolerance_pct ? 1 : 0;
        uncounted += p.last[i].total == before[i].total ? 1 : 0;
        directions = directions && p.last[i].up && p.last[i].down && before[i].up && before[i].down;
        if (!directions) continue;
        stand_up += static_cast<double>(transfers[i].up);
        stand_down += static_cast<double>(transfers[i].down);
        panel_up += static_cast<double>(*p.last[i].up - std::min(*p.last[i].up, *before[i].up));
        panel_down += static_cast<double>(*p.last[i].down - std::min(*p.last[i].down, *before[i].down));
    }
    ctx.put(s.name + ".stand_mib", stand / kMiB);
    ctx.put(s.name + ".panel_mib", panel / kMiB);
    ctx.put(s.name + ".ratio", stand > 0 ? panel / stand : 0);
    ctx.put(s.name + ".ratio_min", *std::min_element(ratios.begin(), ratios.end()));
    ctx.put(s.name + ".ratio_median", median(ratios));
    ctx.put(s.name + ".ratio_max", *std::max_element(ratios.begin(), ratios.end()));
    if (directions && stand_up > 0 && stand_down > 0) {
        ctx.put(s.name + ".up_ratio", panel_up / stand_up);
        ctx.put(s.name + ".down_ratio", panel_down / stand_down);
    }
    ctx.put(s.name + ".users_off", static_cast<double>(off));
    ctx.put(s.name + ".users_uncounted", static_cast<double>(uncounted));
    if (off > 0) {
        char text[300];
        std::snprintf(text, sizeof text,
                      "%llu of %zu users' traffic was counted more than %g%% off the bytes stand moved after %.0f s "
                      "(panel/stand: min %.3f, median %.3f, max %.3f; %llu not counted at all)",
                      static_cast<unsigned long long>(off), ratios.size(), a.tolerance_pct,
                      std::chrono::duration<double>(a.settle_within).count(), *std::min_element(ratios.begin(), ratios.end()),
                      median(ratios), *std::max_element(ratios.begin(), ratios.end()),
                      static_cast<unsigned long long>(uncounted));
        ctx.record.finding(detect::Finding{"traffic-count-off", ctx.scope(s), text});
    }
}

}  // namespace

void run_accounting(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& a = s.action.get<AccountingStep>();
    const auto t0_links = RepClock::now();
    auto links = links_here(ctx, s, a.source, a.source.user, a.users);
    if (!links) return;
    ctx.put(s.name + ".links_s", std::chrono::duration<double>(RepClock::now() - t0_links).count());
    const std::vector<Count> before = read_counts(ctx, s, a);
    const tunnel::ManyClientsResult r = transfer(ctx, s, a, std::move(*links));
    ctx.throw_if_interrupted();  // a stopped transfer is not the panel's or the tunnels' failure
    const auto& transfers = r.transfers;
    const auto failed = static_cast<std::uint64_t>(std::count_if(transfers.begin(), transfers.end(),
                                                                 [](const auto& t) { return !t.ok; }));
    ctx.put(s.name + ".transfer_s", r.elapsed_s);
    ctx.put(s.name + ".transfer_failures", static_cast<double>(failed));
    if (failed == transfers.size())
        throw StepFailure("step " + s.name + ": no user's download completed" + first_error(r.errors));
    if (failed > 0)
        ctx.record.finding(detect::Finding{"tunnel-clients-failed", ctx.scope(s),
                                           std::to_string(failed) + " of " + std::to_string(transfers.size()) +
                                               " users' downloads did not complete (left out of the counts)" +
                                               first_error(r.errors)});
    const Polls p = poll_until_settled(ctx, s, a, before, transfers);
    ctx.put(s.name + ".settled", p.settle_s ? 1 : 0);
    if (p.settle_s) ctx.put(s.name + ".settle_s", *p.settle_s);
    if (p.last_change_s) ctx.put(s.name + ".last_change_s", *p.last_change_s);
    ctx.put(s.name + ".poll_ms", median(p.poll_ms));
    put_ratios(ctx, s, a, before, p, transfers);
    ctx.record.loads[s.name] = json::object{{"schema", "stand.traffic_accounting/1"},
                                            {"bytes_per_user", std::llround(a.mib_per_user * kMiB)},
                                            {"transfer", r.to_json()},
                                            {"users", user_rows(ctx, a, before, p, transfers)},
                                            {"polls", p.history}};
}

}  // namespace stand::scenario::steps
