#include "fleet/remote_stand.hpp"

#include "fleet/build_id.hpp"
#include "fleet/fleet_error.hpp"
#include "fleet/host_facts.hpp"
#include "fleet/wall_clock.hpp"
#include "text/temp_dir.hpp"

#include <stand/version.h>

#include <boost/json.hpp>
#include <boost/process/search_path.hpp>
#include <boost/process/system.hpp>
#include <boost/process/io.hpp>

#include <chrono>
#include <ctime>
#include <limits>
#include <system_error>
#include <unistd.h>

namespace stand::fleet {

namespace json = boost::json;
namespace bp = boost::process;

namespace {

std::string remote_stand() { return install_dir() + "/bin/stand"; }

// `file` into `to`, without debug info when strip is there (a tenth of the size).
void stage(const std::filesystem::path& file, const std::filesystem::path& to) {
    std::filesystem::create_directories(to.parent_path());
    const auto strip = bp::search_path("strip");
    if (!strip.empty() && bp::system(strip, "--strip-debug", "-o", to.string(), file.string(), bp::std_out > bp::null,
                                     bp::std_err > bp::null) == 0)
        return;
    std::filesystem::copy_file(file, to, std::filesystem::copy_options::overwrite_existing);
}

std::uint64_t size_of_tree(const std::filesystem::path& dir) {
    std::uint64_t total = 0;
    for (const auto& e : std::filesystem::recursive_directory_iterator(dir))
        if (e.is_regular_file()) total += e.file_size();
    return total;
}

// Unpacks the tar on stdin beside DIR and renames it into place.
constexpr const char* kUnpack =
    "set -e; d=$1; t=$1.incoming.$$; mkdir -p \"$(dirname \"$d\")\"; rm -rf \"$t\"; mkdir \"$t\"; "
    "tar -xf - -C \"$t\"; rm -rf \"$d\"; mv \"$t\" \"$d\"; \"$d/bin/stand\" --version";

std::string installed_list(const SshSession& session) {
    const auto r = session.run({"sh", "-c", "ls -1 .stand 2>/dev/null | grep -v incoming | tr '\\n' ' '"});
    return r.out.empty() ? "none" : last_line(r.out);
}

}  // namespace

std::string install_dir() {
    const std::string build = own_build_id();
    return std::string(".stand/stand-") + STAND_HOST_VERSION + "-" + (build.empty() ? "nobuildid" : build.substr(0, 12));
}

PushResult push(const SshSession& session, const std::vector<std::filesystem::path>& plugin_files, bool force) {
    PushResult result{install_dir()};
    if (!force) {
        const auto there = session.run({remote_stand(), "fleet", "facts"});
        if (there.exit_code == 0) {
            json::error_code ec;
            const auto facts = json::parse(there.out, ec);
            if (!ec && facts.is_object() && mismatch(own_facts(), facts.as_object()).empty()) {
                result.already_there = true;
                return result;
            }
        }
    }
    const text::TempDir staging("stand-push");
    // Resolved here: a child (strip) reading /proc/self/exe would read itself.
    stage(std::filesystem::read_symlink("/proc/self/exe"), staging.path() / "bin" / "stand");
    for (const auto& plugin : plugin_files) stage(plugin, staging.path() / "plugins" / plugin.filename());
    result.plugins = plugin_files.size();
    result.bytes_sent = size_of_tree(staging.path());
    const auto r = session.run_fed_by({"tar", "-C", staging.path().string(), "-cf", "-", "."},
                                      {"sh", "-c", kUnpack, "sh", result.dir}, std::chrono::seconds(600));
    if (r.exit_code != 0)
        throw FleetError("host " + session.target().name + ": installing stand into ~/" + result.dir +
                         " failed (exit " + std::to_string(r.exit_code) + "): " + last_line(r.err));
    const std::string expected = std::string("stand ") + STAND_HOST_VERSION + " ";
    if (r.out.rfind(expected, 0) != 0)
        throw FleetError("host " + session.target().name + ": the stand installed into ~/" + result.dir +
                         " does not answer --version as this one does: " + last_line(r.out + r.err));
    return result;
}

ClockOffset measure_clock(const SshSession& session, int samples) {
    ClockOffset best{0, std::numeric_limits<std::int64_t>::max(), 0};
    session.converse({remote_stand(), "fleet", "clock"}, [&](const auto& write_line, const auto& read_line) {
        for (int i = 0; i < samples; ++i) {
            const std::int64_t sent = wall_ns();
            write_line("t");
            const std::string answer = read_line();
            const std::int64_t received = wall_ns();
            const std::int64_t remote = std::stoll(answer);
            const std::int64_t half_rtt = (received - sent) / 2;
            ++best.samples;
            if (half_rtt < best.uncertainty_ns) best = {remote - (sent + half_rtt), half_rtt, best.samples};
        }
    });
    return best;
}

HostCheck check(const SshSession& session) {
    HostCheck out;
    const auto r = session.run({remote_stand(), "fleet", "facts"});
    const std::string host = session.target().name;
    if (r.exit_code == 127) {
        out.problem = "this stand (" + install_dir() + ") is not installed on " + host + " (installed there: " +
                      installed_list(session) + "); run: stand fleet push " + session.target().url();
        return out;
    }
    if (r.exit_code != 0) {
        out.problem = "the stand installed on " + host + " does not start (exit " + std::to_string(r.exit_code) +
                      "): " + last_line(r.err);
        return out;
    }
    json::error_code ec;
    const auto facts = json::parse(r.out, ec);
    if (ec || !facts.is_object()) {
        out.problem = "the stand on " + host + " printed no facts (" + last_line(r.out) + ")";
        return out;
    }
    out.facts = facts.as_object();
    if (std::string why = mismatch(own_facts(), out.facts); !why.empty()) {
        out.problem = host + ": " + why + "; run: stand fleet push --force " + session.target().url();
        return out;
    }
    out.clock = measure_clock(session);
    return out;
}

}  // namespace stand::fleet
