// `stand tunnel`: one Hysteria 2 connection through a server to the sink
// (`stand backend`'s /zero and /small), as the one-server scenario's
// tunnel phases measure it.
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/sigint_stop.hpp"
#include "hysteria/hysteria_link.hpp"
#include "load/duration.hpp"
#include "load/load_report.hpp"
#include "quic/udp_batch.hpp"
#include "tunnel/tunnel_run.hpp"
#include "text/finite_json.hpp"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <cstdio>
#include <iostream>

#include <unistd.h>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand tunnel LINK --sink HOST:PORT [options]

Measures a Hysteria 2 tunnel: one QUIC connection (ngtcp2 + GnuTLS, ALPN h3)
authenticates with POST /auth (status 233), opens N proxy streams that each
download the sink's /zero without end, and every probe interval opens one
more stream for the sink's /small (1 KiB) and times it. When the connection
drops it reconnects at once; streams that end without the client closing
them count as dropped. Start the sink with `stand backend`.

  LINK                    hysteria2://auth@host:port/?sni=..&insecure=1&
                          pinSHA256=..&obfs=salamander&obfs-password=..
  --sink HOST:PORT        where the server connects the streams (required)
  --streams N             /zero streams (default 1)
  -d, --duration D        the window (default 10s)
  --probe-interval D      (default 97ms: does not alias a 100 ms CFS period)
  --probe-timeout D       a probe slower than this failed (default 2s)
  --cc ALGO               client congestion control: bbr (default), cubic,
                          bbr2, reno (ngtcp2 has no Brutal; the client
                          sends Hysteria-CC-RX: 0)
  --udp-batching MODE     auto (default): GSO and GRO where the kernel takes
                          them, else sendmmsg/recvmmsg; mmsg: sendmmsg and
                          recvmmsg only; off: a system call per datagram.
                          The result's "udp" names the paths used and any
                          fallback
  --rx-mbit MBIT          declare this download rate (Hysteria-CC-RX, as a
                          client's bandwidth.down): a server that honours it
                          sends with Brutal at min(this, its own limit).
                          Default: none declared (the server's own CC)
  --cacert FILE           trust these PEM certificates too
  --below MBIT            count seconds below this rate (default: half the
                          median second)
  --json                  print the result as JSON (schema stand.tunnel/1)
  --allow-remote          allow a server that is not on this machine
  -h, --help              this text

A line per second goes to stderr while it runs when stderr is a terminal.
Exit: 0 data moved, 1 no byte came through, 2 usage error, 130 interrupted.
)";

std::chrono::nanoseconds duration_of(const std::string& flag, const std::string& text) {
    try {
        return load::parse_duration(text, "--" + flag);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

tunnel::TunnelSpec spec_from(const Args& args) {
    if (args.positionals().size() != 1) throw UsageError("'tunnel' needs one hysteria2:// link (see --help)");
    tunnel::TunnelSpec spec;
    try {
        spec.link = hysteria::parse_hysteria_link(args.positionals().front());
    } catch (const hysteria::LinkError& e) {
        throw UsageError(std::string("tunnel: ") + e.what());
    }
    auto sink = args.value("sink");
    if (!sink) throw UsageError("tunnel: --sink HOST:PORT is required");
    spec.sink = *sink;
    if (auto v = args.value("streams")) {
        unsigned n = 0;
        auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), n);
        if (ec != std::errc{} || end != v->data() + v->size() || n == 0 || n > 1024)
            throw UsageError("--streams: expected an integer in [1, 1024], got '" + *v + "'");
        spec.streams = n;
    }
    if (auto v = args.value("duration")) spec.duration = duration_of("duration", *v);
    if (auto v = args.value("probe-interval")) spec.probe_interval = duration_of("probe-interval", *v);
    if (auto v = args.value("probe-timeout")) spec.probe_timeout = duration_of("probe-timeout", *v);
    if (auto v = args.value("cc")) spec.congestion_control = *v;
    if (auto v = args.value("udp-batching")) {
        auto mode = quic::parse_udp_batching(*v);
        if (!mode) throw UsageError("--udp-batching " + *v + ": expected auto, mmsg or off");
        spec.udp_batching = *mode;
    }
    if (auto v = args.value("cacert")) spec.ca_file = args.check_input_file("cacert");
    if (auto v = args.value("below")) {
        char* end = nullptr;
        spec.below_mbit = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end != '\0' || spec.below_mbit < 0)
            throw UsageError("--below: expected Mbit/s >= 0, got '" + *v + "'");
    }
    if (auto v = args.value("rx-mbit")) {
        char* end = nullptr;
        spec.rx_mbit = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end != '\0' || !(spec.rx_mbit > 0) || spec.rx_mbit > 1e6)
            throw UsageError("--rx-mbit: expected Mbit/s in (0, 1000000], got '" + *v + "'");
    }
    spec.allow_remote = args.flag("allow-remote");
    return spec;
}

void print_result(const tunnel::TunnelResult& result) {
    std::printf("Tunnel %s -> %s, %u stream(s), %.1fs, cc %s%s\n", result.server.c_str(), result.sink.c_str(),
                result.streams, result.window_s, result.congestion_control.c_str(), result.obfs ? ", salamander" : "");
    std::printf("  handshake %.2f ms, auth %.2f ms (Hysteria-UDP %s, Hysteria-CC-RX %s)\n", result.handshake_ms,
                result.auth_ms, result.server_udp.c_str(), result.server_cc_rx.c_str());
    std::printf("  throughput %.1f Mbit/s mean, %s moved, %llu second(s) below %.1f Mbit/s\n", result.mbit_mean,
                load::format_bytes(static_cast<double>(result.bytes)).c_str(),
                static_cast<unsigned long long>(result.seconds_below), result.below_mbit);
    std::printf("  probes %llu sent, %llu ok, %llu failed; latency p50 %s, p99 %s, max %s\n",
                static_cast<unsigned long long>(result.probes_sent), static_cast<unsigned long long>(result.probes_ok),
                static_cast<unsigned long long>(result.probes_failed),
                load::format_us(static_cast<double>(result.probe_latency.value_at_percentile(50))).c_str(),
                load::format_us(static_cast<double>(result.probe_latency.value_at_percentile(99))).c_str(),
                load::format_us(static_cast<double>(result.probe_latency.max())).c_str());
    std::printf("  streams opened %llu, dropped %llu; connection losses %llu, reconnects %llu\n",
                static_cast<unsigned long long>(result.streams_opened),
                static_cast<unsigned long long>(result.streams_dropped),
                static_cast<unsigned long long>(result.connection_losses),
                static_cast<unsigned long long>(result.reconnects));
    for (double g : result.reconnect_gaps_ms) std::printf("  reconnect gap %.1f ms\n", g);
    std::printf("  client CPU %.2f s, %.0f Mbit per CPU-second\n", result.cpu_s, result.mbit_per_cpu_s);
    for (const auto& line : result.udp.describe()) std::printf("  %s\n", line.c_str());
    for (const auto& w : result.warnings) std::printf("  warning: %s\n", w.c_str());
}

}  // namespace

int run_tunnel(const std::vector<std::string>& argv) {
    std::vector<std::string> expanded;
    for (const auto& a : argv) expanded.push_back(a == "-d" ? "--duration" : a == "-h" ? "--help" : a);
    Args args("tunnel", expanded,
              {{"help"}, {"json"}, {"allow-remote"}, {"sink", true}, {"streams", true}, {"duration", true},
               {"probe-interval", true}, {"probe-timeout", true}, {"cc", true}, {"cacert", true}, {"below", true},
               {"udp-batching", true}, {"rx-mbit", true}});
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    const tunnel::TunnelSpec spec = spec_from(args);

    tunnel::TunnelHooks hooks;
    hooks.stop = &SigintStop::flag();
    if (::isatty(STDERR_FILENO) == 1)
        hooks.on_progress = [](const tunnel::TunnelProgress& p) {
            std::fprintf(stderr, "  %4.0fs  %9.1f Mbit/s  probes ok %llu  dropped %llu  reconnects %llu\n", p.elapsed_s,
                         p.mbit_last_second, static_cast<unsigned long long>(p.probes_ok),
                         static_cast<unsigned long long>(p.streams_dropped),
                         static_cast<unsigned long long>(p.reconnects));
        };
    tunnel::TunnelResult result;
    try {
        SigintStop sigint;
        result = tunnel::run_tunnel(spec, hooks);
    } catch (const tunnel::TunnelSpecError& e) {
        throw UsageError(std::string("tunnel: ") + e.what());
    }

    if (args.flag("json")) std::cout << text::finite_json_text(result.to_json()) << "\n";
    else print_result(result);
    std::cout.flush();
    if (SigintStop::flag().load()) return kExitInterrupted;
    return result.bytes > 0 ? kExitOk : kExitFailed;
}

}  // namespace stand::cli
