// `stand load`: the HTTP/1.1 load generator on the command line, a thin
// layer over stand::load::run_load.
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/load_on_generators.hpp"
#include "cli/output_file.hpp"
#include "fleet/wall_clock.hpp"
#include "load/hdr_interval_log.hpp"
#include "load/histogram_file.hpp"
#include "text/text_file.hpp"
#include "cli/sigint_stop.hpp"
#include "load/duration.hpp"
#include "load/link_pattern.hpp"
#include "load/load_engine.hpp"
#include "load/load_report.hpp"
#include "quic/udp_batch.hpp"
#include "text/finite_json.hpp"

#include <boost/json/serialize.hpp>

#include <charconv>
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <ctime>
#include <optional>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include <unistd.h>

namespace stand::cli {
namespace {

const char* kHelp = R"(usage: stand load [options] URL... [--urls FILE]

HTTP/1.1 load generator (plain or TLS, keep-alive on or off), or HTTP/3 over
QUIC with --http3. Only local targets (127.0.0.0/8, ::1, names that resolve
there) unless --allow-remote.

Load model
  -t, --threads N          load threads, one event loop each (default 2)
  -c, --connections N      connections, spread over the threads (default 10).
                           Closed model: each sends its next request when the
                           last one is done. Open model: the cap on requests
                           in flight; due requests beyond it wait (counted).
  -d, --duration D         how long requests are started: 10s, 500ms, 1m
                           (default 10s); requests in flight are then awaited
  --rate R                 open model: R requests/s in total at a constant
                           rate; latency counts from each request's intended
                           send time (coordinated omission corrected), the
                           service time from its actual send. Latency ends
                           at the last byte of the body and includes the
                           connect (and TLS handshake) of a new connection
  --requests N             stop starting requests after N (default: no limit)
  --timeout D              per request, connect included (default 10s);
                           checked every timeout/10 (1 ms .. 100 ms)
  --late D                 open model: a request started more than D after
                           its intended time is "late" (default 1ms)
  --slow D                 responses slower than D are counted per second
                           (default 500ms)
  --warmup-once            first fetch every link once, sequentially on one
                           connection; its statuses are reported separately
  --engine auto|uring|asio what carries HTTP/1.1 (default auto): io_uring
                           (batched submissions, multishot receives into
                           provided buffers; plain http:// only) or Asio
                           (epoll; TLS too). auto takes io_uring for plain
                           links where the kernel allows it, and the result
                           says which engine ran and why not io_uring

Requests
  URL...                   links; requests go to them in global round robin
  --urls FILE              more links, one URL per line ('#' comments)
  --method M               request method (default GET)
  -H, --header "N: v"      add a header to every request (repeatable)
  --ua STRING              User-Agent (default stand-load/VERSION)
  --keepalive on|off       reuse connections (default on); off sends
                           "Connection: close" and connects per request
  --xff PATTERN|default    X-Forwarded-For per link k (0-based) from PATTERN:
                           text with {expressions} of k and n (the number of
                           links) using + - * / % << >> & ^ | ~ ( ) and C
                           precedence; "{{" "}}" are braces. "default" is
                           the seed harness's 10.{k>>8&255}.{k&255}.7
  --bind-prefix A.B|A      link k sends from A.B.(k/250+1).(k%250+1) (63,750
                           links); "A" goes on past A.0 with A.1, A.2, ...
                           (16.3 million links); use 127.0 or 127 on
                           loopback. A kept-alive connection is only
                           reused by links with the same source address.

HTTP/3
  --http3                  QUIC (ngtcp2 + GnuTLS, ALPN h3) and HTTP/3
                           (nghttp3) to one https:// origin; closed model.
                           -c is QUIC connections; "connect" times are QUIC
                           handshakes; --keepalive off makes a new connection
                           (a full handshake) per request
  --streams N              requests in flight per connection (default 1)
  --cc ALGO                the client's congestion control: cubic (default),
                           bbr, bbr2, reno
  --udp-batching MODE      auto (default): GSO and GRO where the kernel takes
                           them, else sendmmsg/recvmmsg; mmsg: those only;
                           off: a system call per datagram. The result's
                           "udp" names the paths used and any fallback

TLS
  --insecure               do not verify the server's certificate or name
  --cacert FILE            trust these PEM certificates too
  --tls-resume             resume TLS sessions (off: a full handshake per
                           connection)

Output
  --json                   print the result as JSON (schema stand.load/1)
  --histogram-out FILE     also write the latency and service histograms,
                           every slot (stand.load-histograms/1), for
                           --merge-histograms
  --hdr-log FILE           also write the latency as an HdrHistogram interval
                           log (HistogramLogWriter's format, V2 compressed
                           histograms, one line per interval by completion
                           time; microseconds, Interval_Max in ms): for
                           HistogramLogProcessor (-outputValueUnitRatio 1000
                           prints ms) or the Python package hdrhistogram
  --hdr-log-interval D     the log's interval (default 1s; at least 1ms; at
                           most 500000 intervals kept, the duration's and
                           the timeout's drain's, times the threads)
  --start-at UNIX_TIME     wait until this wall-clock instant (seconds since
                           the epoch, fractions allowed: generators on
                           several hosts started together); connections open
                           after it; the JSON's "start" says how late it began
  --merge-histograms FILE...
                           no load: merge the files of several runs (e.g.
                           generators on several hosts) slot by slot and
                           print the merged percentiles (--json: with the
                           merged histograms); exact, not averaged
  --allow-remote           allow targets that are not on this machine
  --args-file FILE         more arguments, one a line (what the controller
                           uploads to a generator: no header value on a
                           command line)
  -h, --help               this text

Generators on other hosts (stand fleet push them first)
  --generator NAME=ssh://USER@ADDRESS[:PORT]
                           (repeatable) the load comes from these hosts, not
                           from here: each runs this load with the same
                           options and an even share of --rate and of
                           --requests, all from one start instant (this
                           clock a few seconds ahead, plus each host's
                           measured clock offset). Their histograms come
                           back and are merged slot by slot; counters and
                           per-second series are summed; each generator's
                           CPU, saturation and warnings are reported under
                           its name (JSON schema stand.load-fleet/1).
                           --histogram-out FILE: the merged histograms, and
                           each generator's beside it as FILE-STEM.NAME.json
  --link rtt=D,jitter=D,loss=P%,rate=Nmbit (each optional, one needed)
                           with --generator: declared conditions on each
                           generator's link to the target (one IP address),
                           on its egress, the requests' direction: tc netem
                           (tbf for a rate alone) on its interface towards
                           the target for the load (root needed there; an
                           interface with a qdisc of its own is refused)
                           and taken off after; where its kernel has no
                           netem, stand's own delay line (a TUN device the
                           route to the target goes through; IPv4) carries
                           rtt, jitter and loss, and the output says which
                           (applied_with). The RTT is measured back first (median
                           TCP connect, before and with it); one off the
                           plan is a warning naming the generator
  --host NAME=ssh://USER@ADDRESS[:PORT]
                           (repeatable) declares a host of the fleet (e.g.
                           the one with the system under test): targets on
                           a declared host's or generator's address are
                           allowed as loopback is
  --ssh-config FILE, --accept-new-host-key
                           as for stand fleet

Errors: a request that got no usable answer counts once, under a kind
(JSON "errors") and a reason (JSON "error_reasons", a report line each):
connect_refused, connect, bind, reset/closed/timeout (where: before any
byte, in the headers, in the body), tls, parse (not HTTP/1.x: no status
line, a status outside 100..599, a malformed header or chunk size, a NUL in
a header, a line over 8 KiB, headers over 256 KiB), protocol (a 101, more than 16 interim
1xx answers, bytes no request asked for; 100, 102, 103 are skipped), other.
A connection that erred is closed, never reused.

A line per second goes to stderr while it runs when stderr is a terminal.
The generator measures its own CPU; the result warns (and JSON says
"generator_saturated": true) when it used more than 90 % of its threads.

Exit: 0 done, 1 no request got a response (with --generator: or a
generator failed, named on stderr; the others' results are printed), 2 usage
error or refused target (or a generator host that cannot be used: nothing is
sent), 130 interrupted (the partial result is printed).
)";

// wrk-style short options (-t 2, -t2, -c 10, -d 5s, -H "a: b") to the long names.
std::vector<std::string> expand_short(const std::vector<std::string>& argv) {
    static const std::pair<char, const char*> kShort[] = {
        {'t', "--threads"}, {'c', "--connections"}, {'d', "--duration"}, {'H', "--header"}, {'h', "--help"}};
    std::vector<std::string> out;
    bool rest = false;
    for (const auto& a : argv) {
        if (rest || a.size() < 2 || a[0] != '-' || a[1] == '-') {
            if (a == "--") rest = true;
            out.push_back(a);
            continue;
        }
        const char* long_name = nullptr;
        for (const auto& [c, name] : kShort)
            if (a[1] == c) long_name = name;
        if (long_name == nullptr) {
            out.push_back(a);
            continue;
        }
        out.emplace_back(long_name);
        if (a.size() > 2) out.push_back(a.substr(a[2] == '=' ? 3 : 2));
    }
    return out;
}

// --args-file FILE (or --args-file=FILE): its lines in its place.
std::vector<std::string> expand_args_file(const std::vector<std::string>& argv) {
    std::vector<std::string> out;
    bool rest = false;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& a = argv[i];
        std::optional<std::string> file;
        if (!rest && a == "--args-file") {
            if (i + 1 == argv.size()) throw UsageError("load: --args-file needs a FILE");
            file = argv[++i];
        } else if (!rest && a.rfind("--args-file=", 0) == 0) {
            file = a.substr(12);
        }
        if (!file) {
            rest = rest || a == "--";
            out.push_back(a);
            continue;
        }
        std::string text;
        try {
            text = text::read_input_file(*file);
        } catch (const text::TextFileError& e) {
            throw UsageError(std::string("load: --args-file: ") + e.what());
        }
        std::istringstream lines(text);
        for (std::string line; std::getline(lines, line);) {
            if (line == "--args-file" || line.rfind("--args-file=", 0) == 0)
                throw UsageError("load: --args-file " + *file + ": names --args-file again");
            out.push_back(line);
        }
    }
    return out;
}

std::uint64_t parse_count(const std::string& flag, const std::string& text, std::uint64_t min, std::uint64_t max) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || v < min || v > max)
        throw UsageError("--" + flag + ": expected an integer in [" + std::to_string(min) + ", " +
                         std::to_string(max) + "], got '" + text + "'");
    return v;
}

std::chrono::nanoseconds duration_of(const std::string& flag, const std::string& text) {
    try {
        return load::parse_duration(text, "--" + flag);
    } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
    }
}

// --http3, --streams, --cc and --engine: what carries the requests.
void transport_from(const Args& args, load::LoadSpec& spec) {
    spec.http3.enabled = args.flag("http3");
    if (auto v = args.value("streams")) {
        if (!spec.http3.enabled) throw UsageError("--streams needs --http3");
        spec.http3.streams = static_cast<unsigned>(parse_count("streams", *v, 1, 1000));
    }
    if (auto v = args.value("cc")) {
        if (!spec.http3.enabled) throw UsageError("--cc needs --http3");
        spec.http3.congestion_control = *v;
    }
    if (auto v = args.value("udp-batching")) {
        if (!spec.http3.enabled) throw UsageError("--udp-batching needs --http3");
        auto mode = quic::parse_udp_batching(*v);
        if (!mode) throw UsageError("--udp-batching " + *v + ": expected auto, mmsg or off");
        spec.http3.udp_batching = *mode;
    }
    if (auto v = args.value("engine")) {
        if (*v == "auto") spec.engine = load::Engine::automatic;
        else if (*v == "uring" || *v == "io_uring") spec.engine = load::Engine::uring;
        else if (*v == "asio") spec.engine = load::Engine::asio;
        else throw UsageError("--engine " + *v + ": expected auto, uring or asio");
        if (spec.http3.enabled && spec.engine != load::Engine::automatic)
            throw UsageError("--engine applies to HTTP/1.1; --http3 has its own QUIC engine");
    }
}

// 100,000 links of a storm are about 10 MB.
constexpr std::uintmax_t kMaxUrlsFileBytes = std::uintmax_t{1} << 30;

load::LoadSpec spec_from(const Args& args) {
    load::LoadSpec spec;
    const std::string method = args.value("method").value_or("GET");
    for (const auto& url : args.positionals()) {
        load::Link link;
        link.method = method;
        link.url = url;
        spec.links.push_back(std::move(link));
    }
    if (auto file = args.value("urls")) {
        args.check_input_file("urls", kMaxUrlsFileBytes);
        std::ifstream in(*file, std::ios::binary);
        if (!in) throw UsageError("--urls: cannot read " + *file);
        // Counted first, so that 100,000 links take their bytes once, not a doubling buffer's.
        const auto lines = static_cast<std::size_t>(std::count(std::istreambuf_iterator<char>(in), {}, '\n')) + 1;
        std::error_code ec;
        const auto size = std::filesystem::file_size(*file, ec);
        const auto bytes = ec ? std::size_t{0} : static_cast<std::size_t>(size);
        in.clear();
        in.seekg(0);
        spec.links.reserve(lines, bytes);
        if (load::links_from_stream(in, method, spec.links) == 0) throw UsageError("--urls: " + *file + " lists no URL");
    }
    if (spec.links.empty()) throw UsageError("'load' needs a URL (or --urls FILE)");

    if (auto v = args.value("threads")) spec.threads = static_cast<unsigned>(parse_count("threads", *v, 1, 256));
    if (auto v = args.value("connections"))
        spec.connections = static_cast<unsigned>(parse_count("connections", *v, 1, 100000));
    if (auto v = args.value("duration")) spec.duration = duration_of("duration", *v);
    if (auto v = args.value("timeout")) spec.timeout = duration_of("timeout", *v);
    if (auto v = args.value("late")) spec.late_threshold = duration_of("late", *v);
    if (auto v = args.value("slow")) spec.slow_threshold = duration_of("slow", *v);
    if (auto v = args.value("requests")) spec.max_requests = parse_count("requests", *v, 1, UINT64_MAX / 2);
    if (auto v = args.value("rate")) {
        char* end = nullptr;
        const double r = std::strtod(v->c_str(), &end);
        if (end == v->c_str() || *end != '\0' || !(r > 0) || r > 1e7)
            throw UsageError("--rate: expected requests/s in (0, 10000000], got '" + *v + "'");
        if (std::string why = load::rate_refusal(r, spec.duration); !why.empty())
            throw UsageError("--rate " + *v + " with --duration: " + why);
        spec.model = load::Model::open;
        spec.rate = r;
    }
    if (auto v = args.value("keepalive")) {
        if (*v == "on") spec.keepalive = true;
        else if (*v == "off") spec.keepalive = false;
        else throw UsageError("--keepalive: expected on or off, got '" + *v + "'");
    }
    for (const auto& h : args.values("header")) {
        try {
            spec.identity.headers.push_back(load::parse_header(h));
        } catch (const load::LoadSpecError& e) {
            throw UsageError(std::string("-H: ") + e.what());
        }
    }
    if (auto v = args.value("ua")) spec.identity.user_agent = *v;
    if (auto v = args.value("xff")) {
        spec.identity.xff_pattern = *v == "default" ? std::string(load::kDefaultXffPattern) : *v;
        try {
            load::LinkPattern check(*spec.identity.xff_pattern);
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("--xff: ") + e.what());
        }
    }
    if (auto v = args.value("bind-prefix")) spec.identity.bind_prefix = *v;
    spec.tls.insecure = args.flag("insecure");
    spec.tls.resume = args.flag("tls-resume");
    if (auto v = args.value("cacert")) spec.tls.ca_file = args.check_input_file("cacert");
    spec.allow_remote = args.flag("allow-remote");
    spec.warmup_once = args.flag("warmup-once");
    transport_from(args, spec);
    if (spec.connections < spec.threads)
        throw UsageError("-c " + std::to_string(spec.connections) + " is fewer connections than -t " +
                         std::to_string(spec.threads) + " threads");
    return spec;
}

// --start-at: seconds since the epoch, at most 1 s past and 1 h ahead.
std::int64_t start_instant(const std::string& text) {
    double seconds = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), seconds);
    if (ec != std::errc() || end != text.data() + text.size() || !(seconds > 0))
        throw UsageError("load: --start-at " + text + ": expected seconds since the epoch, e.g. $(date +%s.%N)");
    const auto at = static_cast<std::int64_t>(seconds * 1e9);
    const std::int64_t now = fleet::wall_ns();
    if (at < now - 1'000'000'000)
        throw UsageError("load: --start-at " + text + ": that was " + std::to_string((now - at) / 1'000'000) +
                         " ms ago (check the hosts' clocks: stand fleet check)");
    if (at > now + 3600LL * 1'000'000'000)
        throw UsageError("load: --start-at " + text + ": more than an hour ahead");
    return at;
}

// Sleeps until `at` on the wall clock; false when Ctrl-C came first.
bool wait_until(std::int64_t at) {
    while (!SigintStop::flag().load()) {
        const std::int64_t left = at - fleet::wall_ns();
        if (left <= 0) return true;
        const std::int64_t slice = std::min<std::int64_t>(left, 100'000'000);
        timespec ts{static_cast<time_t>(slice / 1'000'000'000), static_cast<long>(slice % 1'000'000'000)};
        ::nanosleep(&ts, nullptr);
    }
    return false;
}

// --hdr-log FILE [--hdr-log-interval D]: the file, checked, and the interval into `spec`.
std::optional<std::string> hdr_log_from(const Args& args, load::LoadSpec& spec) {
    const auto file = args.value("hdr-log");
    if (!file) {
        if (args.value("hdr-log-interval")) throw UsageError("load: --hdr-log-interval needs --hdr-log FILE");
        return std::nullopt;
    }
    check_output_file("load", "hdr-log", *file);
    spec.histogram_interval = duration_of("hdr-log-interval", args.value("hdr-log-interval").value_or("1s"));
    return file;
}

// After the results are out: a full disk loses the histograms, not the run.
// False (said on stderr) when a file could not be written.
bool write_histograms(const load::LoadResult& result, const std::optional<std::string>& histogram_out,
                      const std::optional<std::string>& hdr_log) {
    try {
        if (histogram_out) load::write_histogram_file(*histogram_out, {result.latency, result.service});
    } catch (const text::TextFileError& e) {
        std::cerr << "stand: load: --histogram-out: " << e.what() << " (the results above are complete)\n";
        return false;
    }
    try {
        if (hdr_log) load::write_hdr_interval_log(*hdr_log, result);
    } catch (const text::TextFileError& e) {
        std::cerr << "stand: load: --hdr-log: " << e.what() << " (the results above are complete)\n";
        return false;
    }
    return true;
}

int merged_histograms(const Args& args) {
    if (args.positionals().empty()) throw UsageError("load: --merge-histograms needs one or more files");
    std::vector<load::HistogramSet> sets;
    for (const auto& f : args.positionals()) {
        try {
            sets.push_back(load::read_histogram_file(f));
        } catch (const std::invalid_argument& e) {
            throw UsageError(std::string("load: --merge-histograms: ") + e.what());
        } catch (const text::TextFileError& e) {
            throw UsageError(std::string("load: --merge-histograms: ") + e.what());
        }
    }
    const auto merged = load::merge_histogram_sets(sets);
    boost::json::object latency;
    for (const auto& [name, h] : merged.latency) latency[name] = load::summarize_us(h);
    if (args.flag("json")) {
        std::cout << text::finite_json_text(boost::json::object{{"schema", "stand.load-merge/1"},
                                                                {"inputs", sets.size()},
                                                                {"latency", latency},
                                                                {"histograms", load::histogram_set_to_json(merged)}})
                  << "\n";
        return kExitOk;
    }
    std::cout << "merged " << sets.size() << " histogram files (latency, us):\n";
    for (const auto& [name, h] : merged.latency)
        std::cout << "  " << name << ": count " << h.count() << ", p50 " << h.value_at_percentile(50) << ", p90 "
                  << h.value_at_percentile(90) << ", p99 " << h.value_at_percentile(99) << ", p99.9 "
                  << h.value_at_percentile(99.9) << ", max " << h.max() << "\n";
    return kExitOk;
}

}  // namespace

int run_load(const std::vector<std::string>& argv) {
    std::vector<OptionSpec> options{
        {"help"},          {"json"},          {"insecure"},        {"tls-resume"},     {"allow-remote"},
        {"warmup-once"},   {"threads", true}, {"connections", true}, {"duration", true}, {"rate", true},
        {"requests", true}, {"timeout", true}, {"late", true},      {"slow", true},     {"urls", true},
        {"method", true},  {"header", true, true}, {"ua", true},   {"keepalive", true}, {"xff", true},
        {"bind-prefix", true}, {"cacert", true}, {"http3"},        {"streams", true},  {"cc", true}, {"udp-batching", true},
        {"histogram-out", true}, {"merge-histograms"}, {"start-at", true}, {"engine", true}, {"hdr-log", true},
        {"hdr-log-interval", true}};
    for (auto& o : generator_options()) options.push_back(std::move(o));
    Args args("load", expand_args_file(expand_short(argv)), options);
    if (args.flag("help")) {
        std::cout << kHelp;
        return kExitOk;
    }
    if (args.flag("merge-histograms")) return merged_histograms(args);
    load::LoadSpec spec = spec_from(args);
    spec.declared_hosts = declared_host_addresses(args);
    const auto histogram_out = args.value("histogram-out");
    if (histogram_out) check_output_file("load", "histogram-out", *histogram_out);
    const auto hdr_log = hdr_log_from(args, spec);
    if (hdr_log && histogram_out) refuse_same_output_file("load", "hdr-log", *hdr_log, "histogram-out", *histogram_out);
    if (!args.values("generator").empty()) {
        if (hdr_log) throw UsageError("load: --hdr-log with --generator: the generators' interval logs are not collected");
        if (args.value("start-at")) throw UsageError("load: --start-at with --generator: the start is set for the generators");
        return load_on_generators(args, spec);
    }

    const bool tty = ::isatty(STDERR_FILENO) == 1;
    load::LoadHooks hooks;
    hooks.stop = &SigintStop::flag();
    std::uint64_t last_completed = 0;
    double last_elapsed = 0;
    if (tty)
        hooks.on_progress = [&](const load::LoadProgress& p) {
            const double dt = p.elapsed_s - last_elapsed;
            const double rate = dt > 0 ? static_cast<double>(p.completed - last_completed) / dt : 0;
            std::fprintf(stderr, "  %5.0fs  %llu responses  %.0f req/s  %llu errors\n", p.elapsed_s,
                         static_cast<unsigned long long>(p.completed), rate,
                         static_cast<unsigned long long>(p.errors));
            last_completed = p.completed;
            last_elapsed = p.elapsed_s;
        };

    const bool timed_start = args.value("start-at").has_value();
    const std::int64_t start_at = timed_start ? start_instant(*args.value("start-at")) : 0;
    load::LoadResult result;
    std::int64_t started_ns = 0;
    try {
        SigintStop sigint;
        if (timed_start && !wait_until(start_at)) return kExitInterrupted;
        started_ns = fleet::wall_ns();
        result = load::run_load(spec, hooks);
    } catch (const load::LoadSpecError& e) {
        throw UsageError(std::string("load: ") + e.what());
    }

    if (args.flag("json")) {
        auto out = result.to_json();
        if (timed_start)
            out["start"] = {{"planned_unix_ns", start_at}, {"actual_unix_ns", started_ns},
                            {"late_us", (started_ns - start_at) / 1000}};
        std::cout << text::finite_json_text(std::move(out)) << "\n";
    } else {
        std::cout << load::format_report(result);
    }
    std::cout.flush();
    if (!write_histograms(result, histogram_out, hdr_log)) return kExitUsage;
    if (result.interrupted) return kExitInterrupted;
    return result.completed == 0 ? kExitFailed : kExitOk;
}

}  // namespace stand::cli
