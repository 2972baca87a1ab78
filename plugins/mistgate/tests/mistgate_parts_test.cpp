// The Mistgate adapter's parts: the install command NodeService/CreateEnrollment
// returns (format of Mistgate internal/panel/fleet/admin_node.go installCommand)
// and the adapter's state file.
#include "mistgate_node.hpp"
#include "mistgate_state.hpp"

#include <stand/cpp/error.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

TEST_CASE("mistgate: the install command's --panel --sni --ca-sha256 --token") {
    const std::string cmd =
        "chmod +x /root/mistgate-node && /root/mistgate-node enroll --panel 10.200.0.1:18081 --sni "
        "q3m8x2kd7wzp4n6t.example.com --ca-sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08 "
        "--token mfrggzdfmztwq2lknnwg23tpobyxe43uov3ho6dzpjqwey3eon2a && /root/mistgate-node install";
    auto i = stand_mistgate::parse_install_command(cmd);
    CHECK(i.panel == "10.200.0.1:18081");
    CHECK(i.sni == "q3m8x2kd7wzp4n6t.example.com");
    CHECK(i.ca_sha256 == "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08");
    CHECK(i.token == "mfrggzdfmztwq2lknnwg23tpobyxe43uov3ho6dzpjqwey3eon2a");
}

TEST_CASE("mistgate: an install command without a value names what is missing, not the token") {
    try {
        stand_mistgate::parse_install_command("mistgate-node enroll --panel p:1 --sni s --token secret-token-value");
        FAIL("no error");
    } catch (const stand::cpp::Error& e) {
        CHECK(e.code() == STAND_E_BAD_RESPONSE);
        const std::string what = e.what();
        CHECK(what.find("--ca-sha256") != std::string::npos);
        CHECK(what.find("secret-token-value") == std::string::npos);
    }
}

TEST_CASE("mistgate: the state file keeps the node agent's enrollment and the probe user, mode 0600") {
    const auto dir = std::filesystem::temp_directory_path() / ("mg-state-" + std::to_string(::getpid()));
    const auto file = dir / "state.json";
    stand_mistgate::State s;
    s.admin_url = "http://localhost:18080/abc/";
    s.node_id = "nod_1";
    s.node_enrolled = true;
    s.probe_user_id = "usr_1";
    s.probe_url = "http://localhost:18080/p/t";
    stand_mistgate::save_state(file, s);
    auto back = stand_mistgate::load_state(file);
    CHECK(back.node_enrolled);
    CHECK(back.probe_user_id == "usr_1");
    CHECK(back.probe_url == "http://localhost:18080/p/t");
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK_FALSE(stand_mistgate::load_state(dir / "absent.json").node_enrolled);
    std::filesystem::remove_all(dir);
}
