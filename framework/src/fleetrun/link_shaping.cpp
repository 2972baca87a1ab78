#include "fleetrun/link_shaping.hpp"

#include "fleet/fleet_error.hpp"
#include "fleetrun/remote_delay_line.hpp"
#include "load/duration.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>
#include <stdexcept>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;

// The kernel's own root qdiscs: an interface with one of these has nothing
// of the owner's that a netem would replace.
constexpr std::string_view kDefaultQdiscs[] = {"noqueue", "pfifo_fast", "fq_codel", "mq", "fq", "pfifo", "cake"};

double decimal(std::string_view text, std::string_view what) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v))
        throw std::invalid_argument(std::string(what) + ": expected a number, got '" + std::string(text) + "'");
    return v;
}

std::uint64_t rate_of(std::string_view text) {
    static const std::pair<std::string_view, double> kUnits[] = {{"gbit", 1e9}, {"mbit", 1e6}, {"kbit", 1e3}, {"bit", 1}};
    for (const auto& [unit, scale] : kUnits) {
        if (!text.ends_with(unit)) continue;
        const double v = decimal(text.substr(0, text.size() - unit.size()), "--link rate") * scale;
        if (!(v >= 8000 && v <= 1e12)) throw std::invalid_argument("--link rate: expected 8kbit..1000gbit, got '" + std::string(text) + "'");
        return static_cast<std::uint64_t>(v);
    }
    throw std::invalid_argument("--link rate: expected a number with kbit, mbit or gbit, got '" + std::string(text) + "'");
}

std::string micros(std::chrono::nanoseconds d) {
    return std::to_string(std::chrono::duration_cast<std::chrono::microseconds>(d).count()) + "us";
}

std::string default_qdisc_problem(const std::string& shown) {
    std::istringstream words(shown);
    std::string qdisc, kind;
    words >> qdisc >> kind;
    if (qdisc != "qdisc" || kind.empty()) return "";  // nothing shown: the default
    for (const auto d : kDefaultQdiscs)
        if (kind == d) return "";
    return "it has a qdisc of its own (" + kind + "), which stand does not replace";
}

}  // namespace

LinkPlan parse_link_plan(std::string_view text) {
    LinkPlan plan;
    bool has_rtt = false;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = std::min(text.find(',', pos), text.size());
        const std::string_view part = text.substr(pos, comma - pos);
        const std::size_t eq = part.find('=');
        if (eq == std::string_view::npos)
            throw std::invalid_argument("--link: expected KEY=VALUE (rtt, jitter, loss, rate), got '" + std::string(part) + "'");
        const std::string_view key = part.substr(0, eq), value = part.substr(eq + 1);
        if (key == "rtt") {
            plan.rtt = load::parse_duration(value, "--link rtt");
            has_rtt = true;
        } else if (key == "jitter") {
            plan.jitter = load::parse_duration(value, "--link jitter", true);
        } else if (key == "loss") {
            if (!value.ends_with('%')) throw std::invalid_argument("--link loss: expected a percentage, e.g. 0.5%");
            plan.loss_pct = decimal(value.substr(0, value.size() - 1), "--link loss");
            if (plan.loss_pct < 0 || plan.loss_pct > 100) throw std::invalid_argument("--link loss: expected 0%..100%");
        } else if (key == "rate") {
            plan.rate_bits = rate_of(value);
        } else {
            throw std::invalid_argument("--link: unknown key '" + std::string(key) + "' (rtt, jitter, loss, rate)");
        }
        pos = comma + 1;
    }
    if (!has_rtt && plan.loss_pct == 0 && !plan.rate_bits)
        throw std::invalid_argument("--link: declare rtt, loss or rate (e.g. rtt=50ms)");
    if (plan.rtt > std::chrono::seconds(10)) throw std::invalid_argument("--link rtt: at most 10s");
    if (plan.jitter > plan.rtt) throw std::invalid_argument("--link jitter: more than the rtt");
    return plan;
}

static bool needs_netem(const LinkPlan& plan) { return plan.rtt.count() > 0 || plan.loss_pct > 0; }

std::vector<std::string> rate_qdisc_args(std::uint64_t rate_bits) {
    // A burst of 10 ms at that rate, at least two full-size packets (tbf
    // splits larger GSO packets to fit).
    const std::uint64_t burst = std::max<std::uint64_t>(rate_bits / 8 / 100, 3028);
    return {"tbf", "rate", std::to_string(rate_bits) + "bit", "burst", std::to_string(burst), "latency", "100ms"};
}

std::vector<std::string> qdisc_args(const LinkPlan& plan) {
    if (!needs_netem(plan)) return rate_qdisc_args(*plan.rate_bits);
    std::vector<std::string> args{"netem", "delay", micros(plan.rtt)};
    if (plan.jitter.count() > 0) args.push_back(micros(plan.jitter));
    if (plan.loss_pct > 0) {
        std::ostringstream loss;
        loss << plan.loss_pct << "%";
        args.insert(args.end(), {"loss", loss.str()});
    }
    if (plan.rate_bits) args.insert(args.end(), {"rate", std::to_string(*plan.rate_bits) + "bit"});
    // netem's default queue (1000 packets) would drop at a few thousand requests/s once delayed
    args.insert(args.end(), {"limit", "100000"});
    return args;
}

json::object link_plan_json(const LinkPlan& plan) {
    json::object o{{"rtt_us", std::chrono::duration_cast<std::chrono::microseconds>(plan.rtt).count()},
                   {"jitter_us", std::chrono::duration_cast<std::chrono::microseconds>(plan.jitter).count()},
                   {"loss_pct", plan.loss_pct}};
    o["rate_bits"] = plan.rate_bits ? json::value(*plan.rate_bits) : json::value(nullptr);
    return o;
}

bool rtt_as_planned(const LinkPlan& plan, std::int64_t before_us, std::int64_t measured_us) {
    const auto planned = std::chrono::duration_cast<std::chrono::microseconds>(plan.rtt).count();
    const auto jitter = std::chrono::duration_cast<std::chrono::microseconds>(plan.jitter).count();
    const std::int64_t slack = planned / 10 + 2 * jitter + 2000;
    return std::llabs(measured_us - (before_us + planned)) <= slack;
}

ShapedLink::ShapedLink(const fleet::SshSession& session, const std::string& target_address, const LinkPlan& plan)
    : session_(session) {
    const std::string& host = session.target().name;
    const auto route = session.run({"ip", "-o", "route", "get", target_address}, {}, std::chrono::seconds(30));
    std::istringstream words(route.out);
    for (std::string w; words >> w;) {
        if (w == "dev") words >> interface_;
        else if (w == "src") words >> source_;
    }
    if (route.exit_code != 0 || interface_.empty())
        throw fleet::FleetError("host " + host + ": no route to " + target_address + " for --link: " +
                                fleet::last_line(route.err.empty() ? route.out : route.err));
    if (interface_ == "lo")
        throw fleet::FleetError("host " + host + ": --link: " + target_address + " is on its loopback; --link shapes the link between hosts");
    const auto shown = session.run({"tc", "qdisc", "show", "dev", interface_, "root"}, {}, std::chrono::seconds(30));
    if (shown.exit_code != 0)
        throw fleet::FleetError("host " + host + ": --link: tc qdisc show dev " + interface_ + ": " + fleet::last_line(shown.err));
    if (const auto problem = default_qdisc_problem(shown.out); !problem.empty())
        throw fleet::FleetError("host " + host + ": --link on " + interface_ + ": " + problem);
    if (put(qdisc_args(plan))) {
        applied_with_ = needs_netem(plan) ? "netem" : "tbf";
        return;
    }
    if (!needs_netem(plan))
        throw fleet::FleetError("host " + host + ": --link: its kernel has no tbf qdisc (CONFIG_NET_SCH_TBF): a rate cannot be applied there");
    // No netem: the rate (if any) in tbf, the rest in stand's delay line.
    if (plan.rate_bits && !put(rate_qdisc_args(*plan.rate_bits)))
        throw fleet::FleetError("host " + host + ": --link: its kernel has neither netem nor tbf: a rate cannot be applied there");
    try {
        delay_line_ = std::make_unique<RemoteDelayLine>(session, interface_, target_address, source_, plan);
    } catch (...) {
        (void)take_off();
        throw;
    }
    applied_with_ = plan.rate_bits ? "stand delay line + tbf" : "stand delay line";
}

bool ShapedLink::put(const std::vector<std::string>& args) {
    std::vector<std::string> tc{"tc", "qdisc", "replace", "dev", interface_, "root"};
    tc.insert(tc.end(), args.begin(), args.end());
    const auto r = session_.run(tc, {}, std::chrono::seconds(30));
    if (r.exit_code != 0 && r.err.find("qdisc kind is unknown") != std::string::npos) return false;
    if (r.exit_code != 0)
        throw fleet::FleetError("host " + session_.target().name + ": --link: tc qdisc replace dev " + interface_ +
                                " (root needed there): " + fleet::last_line(r.err));
    on_ = true;
    return true;
}

std::string ShapedLink::take_off() {
    std::string problem = delay_line_ ? delay_line_->stop() : "";
    if (!on_) return problem;
    on_ = false;
    const auto add = [&problem](const std::string& p) { problem += (problem.empty() ? "" : "; ") + p; };
    try {
        const auto r = session_.run({"tc", "qdisc", "del", "dev", interface_, "root"}, {}, std::chrono::seconds(30));
        if (r.exit_code != 0)
            add("its qdisc on " + interface_ + " could not be taken off: " + fleet::last_line(r.err) + " (tc qdisc del dev " +
                interface_ + " root)");
    } catch (const std::exception& e) {
        add("its qdisc on " + interface_ + " may still be on (" + e.what() + "): tc qdisc del dev " + interface_ + " root");
    }
    return problem;
}

boost::json::object ShapedLink::delay_line_counts() const {
    return delay_line_ ? delay_line_->counts() : boost::json::object{};
}

ShapedLink::~ShapedLink() { (void)take_off(); }

}  // namespace stand::fleetrun
