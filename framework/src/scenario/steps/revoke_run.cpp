#include "scenario/steps/revoke_run.hpp"

#include "load/load_clock.hpp"
#include "scenario/steps/revoke.hpp"
#include "scenario/steps/tunnel_run.hpp"
#include "tunnel/auth_probe.hpp"
#include "tunnel/client_setup.hpp"
#include "tunnel/tunnel_run.hpp"

#include <cstdio>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

namespace stand::scenario::steps {
namespace {

namespace json = boost::json;

// A refusal is the server's answer; silence (a restarting core) is not one.
bool refused(const std::string& problem) { return problem.rfind("authentication refused", 0) == 0; }

double mbit(std::uint64_t bytes, double seconds) { return seconds > 0 ? static_cast<double>(bytes) * 8 / 1e6 / seconds : 0; }

// Every tunnel on a thread of its own, stopped and joined however the step ends.
class Tunnels {
public:
    Tunnels(RepContext& ctx, const Step& s, const std::vector<tunnel::TunnelSpec>& specs)
        : live_(std::make_unique<tunnel::TunnelLive[]>(specs.size())), results_(specs.size()), errors_(specs.size()) {
        hooks_.resize(specs.size());
        for (std::size_t i = 0; i < specs.size(); ++i) {
            hooks_[i].stop = &stop_;
            hooks_[i].live = &live_[i];
            threads_.emplace_back([this, &ctx, &s, &specs, i] {
                try {
                    results_[i] = tunnel::run_tunnel(specs[i], hooks_[i]);
                } catch (const tunnel::RemoteServerError& e) {
                    errors_[i] = remote_server_problem(ctx, s, e, specs[i].link);
                } catch (const std::exception& e) {
                    errors_[i] = e.what();
                }
            });
        }
    }
    ~Tunnels() { join(); }
    Tunnels(const Tunnels&) = delete;
    Tunnels& operator=(const Tunnels&) = delete;

    void join() {
        stop_ = true;
        for (auto& t : threads_)
            if (t.joinable()) t.join();
    }
    const tunnel::TunnelLive& live(std::size_t i) const { return live_[i]; }
    std::uint64_t bytes(std::size_t i) const { return live_[i].bytes.load(std::memory_order_relaxed); }
    const std::optional<tunnel::TunnelResult>& result(std::size_t i) const { return results_[i]; }
    const std::string& error(std::size_t i) const { return errors_[i]; }

private:
    std::atomic<bool> stop_{false};
    std::unique_ptr<tunnel::TunnelLive[]> live_;
    std::vector<tunnel::TunnelHooks> hooks_;
    std::vector<std::optional<tunnel::TunnelResult>> results_;
    std::vector<std::string> errors_;
    std::vector<std::thread> threads_;
};

std::vector<tunnel::TunnelSpec> tunnel_specs(RepContext& ctx, const Step& s, const RevokeStep& a,
                                             std::vector<hysteria::HysteriaLink> links) {
    const std::string sink = tunnel_sink(ctx, s, a.source);
    std::vector<tunnel::TunnelSpec> specs;
    for (auto& link : links) {
        tunnel::TunnelSpec spec;
        spec.link = std::move(link);
        spec.sink = sink;
        spec.streams = a.streams;
        // Ended by the step (stop) when the watch is over; the margin covers the call and the probes' last try.
        spec.duration = std::chrono::duration_cast<std::chrono::nanoseconds>(a.after + a.watch + Seconds(60));
        spec.probe_interval = std::chrono::seconds(1);
        spec.congestion_control = a.source.cc;
        spec.allow_remote = ctx.env.scenario.allow_remote;
        specs.push_back(std::move(spec));
    }
    return specs;
}

void sleep_until(RepContext& ctx, RepClock::time_point until) {
    if (const auto now = RepClock::now(); now < until) ctx.sleep_for(std::chrono::duration_cast<Seconds>(until - now));
}

// What the watch after the call saw.
struct Watched {
    std::string method;             // panel.delete_user or panel.set_user_enabled
    double call_ms = 0;
    std::int64_t revoke_ns = 0;     // load clock, just before the call
    std::optional<double> refused_s;
    std::string last_answer;        // the last new connection's answer
    std::uint64_t tries = 0;
    std::int64_t end_ns = 0;
    std::int64_t last_data_ns = 0;  // the revoked tunnel's last byte
    std::vector<std::uint64_t> at_revoke, at_end;  // each tunnel's bytes
};

// Until watch_end: a new connection with the revoked credential every
// probe_every, until the server refuses it (silence is no refusal).
void watch_refusal(RepContext& ctx, const Step& s, const RevokeStep& a, const hysteria::HysteriaLink& link,
                   RepClock::time_point called, Watched& w) {
    const auto watch_end = called + std::chrono::duration_cast<RepClock::duration>(a.watch);
    while (RepClock::now() < watch_end) {
        ctx.throw_if_interrupted();
        std::string problem;
        try {
            problem = tunnel::hysteria_auth_problem(link, ctx.env.scenario.allow_remote, std::chrono::seconds(1));
        } catch (const tunnel::RemoteServerError& e) {
            throw StepFailure("step " + s.name + ": " + remote_server_problem(ctx, s, e, link));
        }
        ++w.tries;
        if (refused(problem)) {
            w.refused_s = std::chrono::duration<double>(RepClock::now() - called).count();
            w.last_answer = problem;
            break;
        }
        w.last_answer = problem.empty() ? "authenticated" : problem;
        std::this_thread::sleep_for(a.probe_every);
    }
    sleep_until(ctx, watch_end);
}

// The tunnels run, the panel revokes, the watch: what was seen. The tunnels are joined when it returns.
Watched revoke_and_watch(RepContext& ctx, const Step& s, const RevokeStep& a, const RepUser& revoked,
                         const std::vector<tunnel::TunnelSpec>& specs) {
    const std::size_t tunnels = specs.size();
    Watched w;
    Tunnels running(ctx, s, specs);
    sleep_until(ctx, RepClock::now() + std::chrono::duration_cast<RepClock::duration>(a.after));
    for (std::size_t i = 0; i < tunnels; ++i) w.at_revoke.push_back(running.bytes(i));
    const bool disable = a.action == RevokeStep::Action::disable_user;
    w.revoke_ns = load::now_ns();
    const auto called = RepClock::now();
    const auto reply = disable ? ctx.port.set_user_enabled(revoked.id, false, std::chrono::seconds(30))
                               : ctx.port.delete_user(revoked.id, std::chrono::seconds(30));
    w.call_ms = std::chrono::duration<double, std::milli>(RepClock::now() - called).count();
    w.method = abi_name(reply.call);
    if (!reply.ok())
        throw StepFailure("step " + s.name + ": " + w.method + "(" + revoked.id + ")" +
                          (reply.error.empty() ? "" : ": " + reply.error));
    watch_refusal(ctx, s, a, specs.front().link, called, w);
    w.end_ns = load::now_ns();
    for (std::size_t i = 0; i < tunnels; ++i) w.at_end.push_back(running.bytes(i));
    w.last_data_ns = running.live(0).last_data_ns.load(std::memory_order_relaxed);
    running.join();
    for (std::size_t i = 0; i < tunnels; ++i)
        if (!running.error(i).empty())
            throw StepFailure("step " + s.name + ": tunnel " + std::to_string(i) + ": " + running.error(i));
    json::array others;
    for (std::size_t i = 1; i < tunnels; ++i) others.push_back(running.result(i)->to_json());
    ctx.record.loads[s.name] = json::object{
        {"action", disable ? "disable" : "delete"}, {"user", revoked.id},  {"call_ms", w.call_ms},
        {"refusal_tries", w.tries},                {"last_answer", w.last_answer},
        {"revoked", running.result(0)->to_json()}, {"others", others}};
    if (w.at_revoke[0] == 0)
        throw StepFailure("step " + s.name + ": the revoked user's tunnel carried nothing before the revocation" +
                          (running.result(0)->warnings.empty() ? std::string()
                                                               : " (" + running.result(0)->warnings.front() + ")"));
    return w;
}

// The metrics and findings of what was seen; the other users' losses from their results in loads.
void record_revocation(RepContext& ctx, const Step& s, const RevokeStep& a, const Watched& w) {
    const double after_s = std::chrono::duration<double>(a.after).count();
    const double watch_s = std::chrono::duration<double>(a.watch).count();
    ctx.put(s.name + ".call_ms", w.call_ms);
    if (w.refused_s) ctx.put(s.name + ".refused_s", *w.refused_s);
    // Streams that stopped before the call stopped for another reason: no time is stated for them.
    if (w.last_data_ns < w.revoke_ns)
        throw StepFailure("step " + s.name + ": the revoked user's tunnel stopped bringing data " +
                          std::to_string(static_cast<double>(w.revoke_ns - w.last_data_ns) / 1e9) + " s before " +
                          w.method);
    // Bytes in the last second of the watch: the established streams were still flowing when it ended.
    const bool still_flowing = w.last_data_ns >= w.end_ns - 1'000'000'000;
    ctx.put(s.name + ".still_flowing", still_flowing ? 1 : 0);
    if (!still_flowing) ctx.put(s.name + ".streams_stopped_s", static_cast<double>(w.last_data_ns - w.revoke_ns) / 1e9);
    const double revoked_after = mbit(w.at_end[0] - w.at_revoke[0], watch_s);
    ctx.put(s.name + ".revoked_mbit_before", mbit(w.at_revoke[0], after_s));
    ctx.put(s.name + ".revoked_mbit_after", revoked_after);
    std::uint64_t dropped = 0, losses = 0, others_after = 0;
    const auto& others = ctx.record.loads[s.name].as_object().at("others").as_array();
    for (std::size_t i = 1; i < w.at_end.size(); ++i) {
        const auto& r = others[i - 1].as_object();
        dropped += r.at("streams_dropped").to_number<std::uint64_t>();
        losses += r.at("connection_losses").to_number<std::uint64_t>();
        others_after += w.at_end[i] - w.at_revoke[i];
    }
    if (w.at_end.size() > 1) {
        ctx.put(s.name + ".others_streams_dropped", static_cast<double>(dropped));
        ctx.put(s.name + ".others_connection_losses", static_cast<double>(losses));
        ctx.put(s.name + ".others_mbit_after", mbit(others_after, watch_s));
    }
    const char* how = a.action == RevokeStep::Action::disable_user ? "disabled" : "deleted";
    char text[320];
    if (!w.refused_s) {
        std::snprintf(text, sizeof text, "a new connection with the %s user's credential was not refused within %.0f s "
                      "(last answer: %s)", how, watch_s, w.last_answer.c_str());
        ctx.record.finding(detect::Finding{"revocation-not-refused", ctx.scope(s), text});
    }
    if (still_flowing) {
        std::snprintf(text, sizeof text, "the %s user's established streams were still flowing %.0f s after %s "
                      "(%.1f Mbit/s in the watch)", how, watch_s, w.method.c_str(), revoked_after);
        ctx.record.finding(detect::Finding{"revoked-still-flowing", ctx.scope(s), text});
    }
    if (dropped > 0 || losses > 0)
        ctx.record.finding(detect::Finding{"revocation-hit-others", ctx.scope(s),
                                           std::to_string(dropped) + " stream(s) of the other users dropped, " +
                                               std::to_string(losses) + " connection loss(es)"});
}

}  // namespace

void run_revoke(RepContext& ctx, const Step& s, RepClock::time_point) {
    const auto& a = s.action.get<RevokeStep>();
    const std::uint32_t tunnels = a.others + 1;
    if (a.source.user + tunnels > ctx.state.users.size())
        throw StepFailure("step " + s.name + " revokes user " + std::to_string(a.source.user) + " beside " +
                          std::to_string(a.others) + " other(s) after it, but " + std::to_string(ctx.state.users.size()) +
                          " users exist: create more before it");
    // Fetched before anything is revoked: a deleted user's link is gone.
    const auto links = links_here(ctx, s, a.source, a.source.user, tunnels);
    if (!links) return;
    const RepUser revoked = ctx.state.users[a.source.user];
    const auto specs = tunnel_specs(ctx, s, a, *links);
    // Nothing is revoked for tunnels that cannot start: a server beyond this machine fails the step first.
    for (const auto& spec : specs) {
        try {
            (void)tunnel::resolve_server(spec.link, ctx.env.scenario.allow_remote);
        } catch (const tunnel::RemoteServerError& e) {
            throw StepFailure("step " + s.name + ": " + remote_server_problem(ctx, s, e, spec.link));
        } catch (const std::exception& e) {
            throw StepFailure("step " + s.name + ": " + e.what());
        }
    }
    const bool disable = a.action == RevokeStep::Action::disable_user;
    // The user as it was for the steps after this one, whether the watch went well or not.
    Watched w;
    try {
        w = revoke_and_watch(ctx, s, a, revoked, specs);
    } catch (const StepFailure&) {
        if (disable && !ctx.env.interrupted.load())
            (void)ctx.port.set_user_enabled(revoked.id, true, std::chrono::seconds(30));
        throw;
    }
    if (disable) {
        const auto back = ctx.port.set_user_enabled(revoked.id, true, std::chrono::seconds(30));
        if (!back.ok()) throw StepFailure("step " + s.name + ": enabling " + revoked.id + " again: " + back.error);
    }
    record_revocation(ctx, s, a, w);
}

}  // namespace stand::scenario::steps
