#include "fleetrun/remote_delay_line.hpp"

#include "fleet/fleet_error.hpp"
#include "fleet/remote_stand.hpp"

#include <charconv>
#include <sstream>

namespace stand::fleetrun {
namespace {

namespace json = boost::json;

// "delay-line done forwarded=12 lost=0 ..." as {"forwarded": 12, ...}.
json::object counts_of(const std::string& line) {
    json::object o;
    std::istringstream words(line);
    for (std::string w; words >> w;) {
        const auto eq = w.find('=');
        if (eq == std::string::npos) continue;
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(w.data() + eq + 1, w.data() + w.size(), v);
        if (ec == std::errc{} && end == w.data() + w.size()) o[w.substr(0, eq)] = v;
    }
    return o;
}

}  // namespace

std::string delay_line_plan_text(const LinkPlan& plan) {
    std::ostringstream text;
    const auto us = [](std::chrono::nanoseconds d) { return std::chrono::duration_cast<std::chrono::microseconds>(d).count(); };
    text << "rtt=" << us(plan.rtt) << "us";
    if (plan.jitter.count() > 0) text << ",jitter=" << us(plan.jitter) << "us";
    if (plan.loss_pct > 0) text << ",loss=" << plan.loss_pct << "%";
    return text.str();
}

void RemoteDelayLine::converse(const std::vector<std::string>& argv) {
    std::string problem;
    try {
        session_.converse(argv, [this](const auto& write_line, const auto& read_line) {
            const std::string first = read_line();
            {
                std::lock_guard lock(mutex_);
                started_ = true;
                if (first.rfind("delay-line ", 0) == 0) device_ = first.substr(11);
                else problem_ = first.rfind("refused: ", 0) == 0 ? first.substr(9) : "it said: " + first;
            }
            changed_.notify_all();
            if (device_.empty()) return;
            std::unique_lock lock(mutex_);
            changed_.wait(lock, [this] { return stop_asked_; });
            lock.unlock();
            write_line("stop");
            const std::string last = read_line();
            lock.lock();
            counts_ = counts_of(last);
        });
    } catch (const std::exception& e) {
        problem = e.what();
    }
    std::lock_guard lock(mutex_);
    if (problem_.empty()) problem_ = problem;
    started_ = ended_ = true;
    changed_.notify_all();
}

RemoteDelayLine::RemoteDelayLine(const fleet::SshSession& session, const std::string& via,
                                 const std::string& target_address, const std::string& source_address,
                                 const LinkPlan& plan)
    : session_(session) {
    const std::string& host = session.target().name;
    if (target_address.find(':') != std::string::npos)
        throw fleet::FleetError("host " + host + ": --link: the kernel there has no netem, and stand's delay line "
                                "carries IPv4 only (the target is " + target_address + ")");
    if (source_address.empty())
        throw fleet::FleetError("host " + host + ": --link: its route to " + target_address + " names no source address");
    const std::vector<std::string> argv{fleet::install_dir() + "/bin/stand", "fleet", "delay-line", via,
                                        delay_line_plan_text(plan)};
    thread_ = std::thread([this, argv] { converse(argv); });
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return started_; });
    if (device_.empty()) {
        const std::string why = problem_;
        lock.unlock();
        thread_.join();
        throw fleet::FleetError("host " + host + ": --link: stand's delay line (its kernel has no netem) did not start: " + why);
    }
    lock.unlock();
    const auto route = session.run({"ip", "route", "add", target_address + "/32", "dev", device_, "src", source_address},
                                   {}, std::chrono::seconds(30));
    if (route.exit_code != 0) {
        (void)stop();
        throw fleet::FleetError("host " + host + ": --link: ip route add " + target_address + "/32 dev " + device_ +
                                ": " + fleet::last_line(route.err));
    }
}

std::string RemoteDelayLine::stop() {
    {
        std::lock_guard lock(mutex_);
        if (stop_asked_ || !thread_.joinable()) return "";
        stop_asked_ = true;
    }
    changed_.notify_all();
    thread_.join();
    if (!problem_.empty())
        return "stand's delay line on " + device_ + " ended badly (" + problem_ +
               "); its device and route go with its process";
    return "";
}

RemoteDelayLine::~RemoteDelayLine() { (void)stop(); }

}  // namespace stand::fleetrun
