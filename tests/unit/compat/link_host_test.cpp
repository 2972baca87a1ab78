// Where a share link's host is, for compat's endpoint checks (issue 51): a
// host that is no address and not in the hosts file names no endpoint.
#include "compat/link_host.hpp"

#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <vector>

using stand::compat::hosts_file_addresses;
using stand::compat::LinkPlace;
using stand::compat::place_of;

namespace {

std::filesystem::path hosts_file(const stand::test::TempDir& dir) {
    const auto file = dir.path() / "hosts";
    std::ofstream(file) << "127.0.0.1\tlocalhost\n"
                           "# 10.9.9.9 commented.example\n"
                           "127.0.1.1 panel.lan panel   # trailing comment\n"
                           "203.0.113.7 node1.bench.test\n"
                           "not-an-address bogus.lan\n"
                           "::1 ip6-loopback\n";
    return file;
}

}  // namespace

TEST_CASE("link host: hosts-file names are read case-insensitively, comments and bad lines skipped") {
    stand::test::TempDir dir;
    const auto file = hosts_file(dir);
    CHECK(hosts_file_addresses("PANEL.lan", file) == std::vector<std::string>{"127.0.1.1"});
    CHECK(hosts_file_addresses("panel", file) == std::vector<std::string>{"127.0.1.1"});
    CHECK(hosts_file_addresses("commented.example", file).empty());
    CHECK(hosts_file_addresses("bogus.lan", file).empty());
    CHECK(hosts_file_addresses("panel.lan", dir.path() / "missing").empty());
}

TEST_CASE("link host: here, elsewhere or nowhere, without a DNS query") {
    stand::test::TempDir dir;
    const auto file = hosts_file(dir);
    CHECK(place_of("127.0.0.1", file).place == LinkPlace::here);
    CHECK(place_of("::1", file).place == LinkPlace::here);
    CHECK(place_of("localhost", file).place == LinkPlace::here);
    CHECK(place_of("panel.lan", file).place == LinkPlace::here);
    CHECK(place_of("203.0.113.5", file).place == LinkPlace::elsewhere);
    CHECK(place_of("node1.bench.test", file).place == LinkPlace::elsewhere);  // the hosts file names it
    CHECK(place_of("node2.bench.test", file).place == LinkPlace::elsewhere);  // a deliberate test name
    // What panels write when they have no address, a REALITY decoy, an info line.
    for (const char* host : {"none", "none.sslip.io", "yahoo.com", "12.51--2026.12.07.time"}) {
        CAPTURE(host);
        const auto where = place_of(host, file);
        CHECK(where.place == LinkPlace::nowhere);
        CHECK(where.addresses.empty());
        CHECK(where.why == "no address and not in " + file.string() + "; stand compat looks no name up in DNS");
    }
}
