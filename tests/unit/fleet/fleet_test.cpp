// The fleet's host arguments and the quoting of every argument that reaches
// a remote shell (tests/fleet runs the real ssh against sshd in namespaces).
#include "fleet/fleet_error.hpp"
#include "fleet/shell_quote.hpp"
#include "fleet/ssh_target.hpp"

#include <doctest/doctest.h>

#include <array>
#include <cstdio>
#include <string>
#include <vector>

using namespace stand::fleet;

namespace {

// What /bin/sh makes of `line`: each word it reads, one per line.
std::string words_read_by_sh(const std::string& line) {
    const std::string command = "printf '%s\\n' " + line;
    FILE* pipe = ::popen(("/bin/sh -c " + shell_quote(command)).c_str(), "r");
    REQUIRE(pipe != nullptr);
    std::string out;
    std::array<char, 256> buf{};
    while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) out.append(buf.data(), n);
    ::pclose(pipe);
    return out;
}

}  // namespace

TEST_CASE("fleet host argument: NAME=ssh://USER@ADDRESS[:PORT], keys only, nothing a shell or ssh could take") {
    auto t = parse_host_arg("box=ssh://root@10.0.0.2");
    CHECK(t.name == "box");
    CHECK(t.user == "root");
    CHECK(t.address == "10.0.0.2");
    CHECK(t.port == 22);
    CHECK(t.url() == "ssh://root@10.0.0.2:22");
    t = parse_host_arg("ssh://bench.user@[fd00::2]:2222");
    CHECK(t.name == "fd00__2_2222");  // the port in the name: two ports of one address are two hosts
    CHECK(t.address == "fd00::2");
    CHECK(t.port == 2222);
    CHECK(t.url() == "ssh://bench.user@[fd00::2]:2222");
    CHECK(parse_host_arg("gen-1=ssh://u@gen1.lab.example").address == "gen1.lab.example");

    const std::vector<std::pair<std::string, std::string>> refused{
        {"box=ssh://root:secret@10.0.0.2", "a password in the URL"},
        {"box=ssh://10.0.0.2", "no user"},
        {"box=http://root@10.0.0.2", "not an ssh:// URL"},
        {"box=ssh://root@10.0.0.2/path", "a path, query or fragment"},
        {"box=ssh://root@10.0.0.2:0", "the port must be 1..65535"},
        {"box=ssh://root@10.0.0.2:70000", "the port must be 1..65535"},
        {"box=ssh://root@10.0.0.2:", "an empty port"},
        {"box=ssh://root@-oProxyCommand=x", "not an address or host name"},
        {"box=ssh://-oProxyCommand=x@h", "the user must be"},
        {"box=ssh://ro ot@h", "the user must be"},
        {"b;x=ssh://root@h", "the name must be"},
        {"$(x)=ssh://root@h", "the name must be"},
        {"box=ssh://root@[fd00::2", "without its closing"},
        {"box=ssh://root@[not:v6]", "is not an IPv6 address"},
        {"box=ssh://root@h;rm", "not an address or host name"},
    };
    for (const auto& [arg, why] : refused) {
        CAPTURE(arg);
        try {
            parse_host_arg(arg);
            FAIL("accepted");
        } catch (const FleetError& e) {
            const std::string what = e.what();
            CHECK(what.find(why) != std::string::npos);
            CHECK(what.find("expected NAME=ssh://USER@ADDRESS") != std::string::npos);
        }
    }
}

TEST_CASE("fleet shell quoting: a POSIX shell reads back exactly the words given, hostile ones included") {
    const std::vector<std::string> words{"plain", "two words", "it's", "'", "''", "a\"b", "; rm -rf /tmp/x",
                                         "$(touch /tmp/stand-fleet-quote-pwned)", "`id`", "$HOME", "\\", "*",
                                         "line\nbreak", "", "-n", "é ü"};
    std::string expected;
    for (const auto& w : words) expected += w + "\n";
    CHECK(words_read_by_sh(shell_line(words)) == expected);
    CHECK(shell_quote("it's") == "'it'\\''s'");
    CHECK_THROWS_AS(shell_quote(std::string("a\0b", 3)), FleetError);
}
