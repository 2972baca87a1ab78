// What `stand load` and the scenario engine ask the load generator to do.
// run_load (load/load_engine.hpp) turns a LoadSpec into a LoadResult.
#pragma once

#include "load/link_list.hpp"
#include "quic/udp_batch.hpp"

#include <chrono>
#include <istream>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace stand::load {

using namespace std::chrono_literals;

// A spec that cannot run: bad values, a refused (non-local) target, an
// unresolvable name. The message names the flag or the URL.
class LoadSpecError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

enum class Model {
    closed,  // every connection sends its next request when the previous one is done
    open,    // requests are scheduled at a constant rate, whether answers came or not
};

// How each link presents itself to the server.
struct ClientIdentity {
    std::string user_agent = "stand-load/" STAND_HOST_VERSION;
    std::vector<Header> headers;  // on every request ("-H")
    // X-Forwarded-For per link from a pattern (load/link_pattern.hpp), e.g.
    // kDefaultXffPattern. Overrides an X-Forwarded-For in `headers`.
    std::optional<std::string> xff_pattern;
    // "A.B": requests of link k leave from A.B.(k/250+1).(k%250+1), as the
    // seed harness did (127.x.y.z works on loopback without aliases). A kept-
    // alive connection is only reused for links with the same source address.
    std::optional<std::string> bind_prefix;
};

struct TlsOptions {
    bool insecure = false;  // skip certificate and host name verification
    bool resume = false;    // offer the last session of the same target again
    std::string ca_file;    // extra trust anchors (PEM); the system store otherwise
};

// HTTP/3 instead of HTTP/1.1 (load/http3_worker.hpp): QUIC connections on
// ngtcp2 + GnuTLS, requests on nghttp3. Closed model only.
struct Http3Options {
    bool enabled = false;
    unsigned streams = 1;                 // concurrent requests per connection
    std::string congestion_control = "cubic";  // cubic, bbr, bbr2, reno
    quic::UdpBatching udp_batching = quic::UdpBatching::automatic;
};

// What carries HTTP/1.1: io_uring (plain TCP; load/uring_worker.hpp) or
// Asio (TLS too; load/load_worker.hpp). automatic: io_uring for plain
// links where the kernel allows it, Asio otherwise, and the result says
// which and why.
enum class Engine { automatic, uring, asio };

struct LoadSpec {
    LinkList links;
    Model model = Model::closed;
    double rate = 0;  // open model: requests per second, all threads together
    unsigned connections = 10;  // workers; in the open model the cap on requests in flight
    unsigned threads = 2;       // one io_context per thread; connections spread over them
    std::chrono::nanoseconds duration = 10s;  // the sending window
    std::uint64_t max_requests = 0;           // stop sending after this many (0: no limit)
    std::chrono::nanoseconds timeout = 10s;   // per request, from its start to its last byte
    bool keepalive = true;
    ClientIdentity identity;
    TlsOptions tls;
    bool allow_remote = false;  // otherwise only 127.0.0.0/8, ::1 and localhost names resolving there
    // Fleet hosts the user declared (ssh://user@ADDRESS: the ADDRESS as given, a
    // literal or a name): targets there are allowed too.
    std::vector<std::string> declared_hosts;
    bool warmup_once = false;   // fetch every link once, sequentially, before the run
    std::set<unsigned> cpus;    // the load threads run only on these CPUs; empty: anywhere
    Http3Options http3;
    Engine engine = Engine::automatic;

    // A request sent more than this after its intended time is "late" (open model).
    std::chrono::nanoseconds late_threshold = 1ms;
    // Requests slower than this are counted per second ("slow seconds").
    std::chrono::nanoseconds slow_threshold = 500ms;
    // Also keep the latency histogram of each interval this long
    // (LoadResult::latency_intervals, the --hdr-log); 0: not.
    std::chrono::nanoseconds histogram_interval = 0ns;
    // Throws LoadSpecError when a field is out of range (not the URLs: those
    // are checked when the run is prepared).
    void validate() const;
};

// Why an open-model rate offers no request beyond the one at the start in
// `duration` (rate x duration < 1); empty when it offers one. `stand load
// --rate`, the load step and the capacity step refuse such a rate when read.
// A load the host composes (a dashboard polling every 10 s over a 5 s step)
// may have one: it sends the request at the start and ends.
std::string rate_refusal(double rate, std::chrono::duration<double> duration);

// One link per line (what `--urls FILE` reads), appended to `out`; empty
// lines and lines starting with '#' are skipped, surrounding blanks trimmed.
// Returns how many were added.
std::size_t links_from_stream(std::istream& in, const std::string& method, LinkList& out);
LinkList links_from_lines(const std::string& text, const std::string& method = "GET");

// "Name: value" as given to -H. Throws LoadSpecError.
Header parse_header(const std::string& text);

}  // namespace stand::load
