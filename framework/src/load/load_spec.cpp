#include "load/load_spec.hpp"

#include "load/duration.hpp"
#include "load/interval_budget.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace stand::load {

std::string rate_refusal(double rate, std::chrono::duration<double> duration) {
    const double seconds = duration.count();
    if (rate * seconds >= 1) return {};
    char text[240];
    std::snprintf(text, sizeof text,
                  "a rate of %g/s over %s offers %g requests (one every %g s); a rate needs at least one request "
                  "in the duration: %g/s or more",
                  rate, format_duration(std::chrono::duration_cast<std::chrono::nanoseconds>(duration)).c_str(),
                  rate * seconds, 1 / rate, 1 / seconds);
    return text;
}

void LoadSpec::validate() const {
    if (links.empty()) throw LoadSpecError("no URL to load (give URLs or --urls FILE)");
    if (threads == 0 || threads > 256) throw LoadSpecError("threads must be in 1..256");
    if (connections == 0 || connections > 100000) throw LoadSpecError("connections must be in 1..100000");
    if (connections < threads)
        throw LoadSpecError("connections (" + std::to_string(connections) + ") must be >= threads (" +
                            std::to_string(threads) + ")");
    if (model == Model::open && !(rate > 0 && std::isfinite(rate) && rate <= 10'000'000))
        throw LoadSpecError("the open model needs a rate in (0, 10000000] requests/s");
    if (model == Model::closed && rate != 0) throw LoadSpecError("a rate needs the open model");
    if (duration <= 0ns) throw LoadSpecError("duration must be positive");
    if (timeout <= 0ns) throw LoadSpecError("timeout must be positive");
    if (late_threshold < 0ns) throw LoadSpecError("late threshold must not be negative");
    if (slow_threshold <= 0ns) throw LoadSpecError("slow threshold must be positive");
    if (histogram_interval != 0ns && histogram_interval < 1ms)
        throw LoadSpecError("--hdr-log-interval must be at least 1ms");
    if (histogram_interval != 0ns)
        if (auto why = interval_budget_refusal(histogram_interval, duration, timeout, threads); !why.empty())
            throw LoadSpecError(why);
    if (http3.enabled) {
        if (http3.streams == 0 || http3.streams > 1000) throw LoadSpecError("--streams must be in 1..1000");
        if (model == Model::open) throw LoadSpecError("--http3 runs the closed model only (no --rate)");
        if (identity.bind_prefix) throw LoadSpecError("--http3 does not take --bind-prefix");
        if (tls.resume) throw LoadSpecError("--http3 makes a full handshake per connection (no --tls-resume)");
        if (warmup_once) throw LoadSpecError("--http3 has no --warmup-once pass");
        const auto& cc = http3.congestion_control;
        if (cc != "cubic" && cc != "bbr" && cc != "bbr2" && cc != "reno")
            throw LoadSpecError("--cc '" + cc + "': expected cubic, bbr, bbr2 or reno");
    }
}

std::size_t links_from_stream(std::istream& in, const std::string& method, LinkList& out) {
    const LinkShape shape{method, {}, {}};
    std::size_t added = 0;
    std::string line;
    while (std::getline(in, line)) {
        const auto first = line.find_first_not_of(" \t\r");
        if (first == std::string::npos || line[first] == '#') continue;
        const auto last = line.find_last_not_of(" \t\r");
        out.push_back(std::string_view(line).substr(first, last - first + 1), shape);
        ++added;
    }
    return added;
}

LinkList links_from_lines(const std::string& text, const std::string& method) {
    LinkList out;
    std::istringstream in(text);
    links_from_stream(in, method, out);
    return out;
}

Header parse_header(const std::string& text) {
    const auto colon = text.find(':');
    if (colon == std::string::npos || colon == 0)
        throw LoadSpecError("header '" + text + "' is not \"Name: value\"");
    std::string name = text.substr(0, colon);
    std::string value = text.substr(colon + 1);
    const auto b = value.find_first_not_of(" \t");
    value = b == std::string::npos ? std::string() : value.substr(b);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.pop_back();
    return {name, value};
}

}  // namespace stand::load
