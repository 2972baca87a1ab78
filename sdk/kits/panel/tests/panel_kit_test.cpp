// The panel adapters' shared code (sdk/kits/panel): TOTP against the RFC
// 6238 test vectors, base32, URL resolution, stored credentials and keys,
// compose files as data, env files, counts in replies. (Its declared processes are run by the
// ctests compat.fixture.companions*.)
#include <stand/kits/panel/admin_api.hpp>
#include <stand/kits/panel/compose_file.hpp>
#include <stand/kits/panel/credentials.hpp>
#include <stand/kits/panel/file_text.hpp>
#include <stand/kits/panel/totp.hpp>
#include <stand/kits/panel/url.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

TEST_CASE("panel kit: TOTP matches the RFC 6238 SHA-1 test vectors") {
    const auto key = stand_panel_kit::base32_decode("GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
    CHECK(std::string(key.begin(), key.end()) == "12345678901234567890");
    CHECK(stand_panel_kit::totp_code(key, 59, 30, 8) == "94287082");
    CHECK(stand_panel_kit::totp_code(key, 1111111109, 30, 8) == "07081804");
    CHECK(stand_panel_kit::totp_code(key, 1111111111, 30, 8) == "14050471");
    CHECK(stand_panel_kit::totp_code(key, 1234567890, 30, 8) == "89005924");
    CHECK(stand_panel_kit::totp_code(key, 2000000000, 30, 8) == "69279037");
    CHECK(stand_panel_kit::totp_code(key, 20000000000ULL, 30, 8) == "65353130");
    CHECK(stand_panel_kit::totp_code(key, 59) == "287082");  // 6 digits: the low digits
    CHECK(stand_panel_kit::base32_decode("gezdgnbv") == stand_panel_kit::base32_decode("GEZDGNBV"));
    CHECK_THROWS_AS(stand_panel_kit::base32_decode("GEZ1"), std::invalid_argument);
    CHECK(stand_panel_kit::otpauth_secret("otpauth://totp/M:o?secret=ABC234&issuer=M") == "ABC234");
    CHECK(stand_panel_kit::otpauth_secret("otpauth://totp/M:o?issuer=M").empty());
}

TEST_CASE("panel kit: a count in a reply is an integer >= 0 or its digits as a string (protojson's 64-bit form)") {
    const auto reply = boost::json::parse(
        R"({"n": 7, "big": 18446744073709551615, "text": "12345678901234567890", "whole": 3.0, "neg": -1,
            "frac": 1.5, "sign": "-4", "spaced": " 4", "empty": "", "no": true})");
    const auto count = [&](const char* key) { return stand_panel_kit::count_member(reply, "p", "read", {key}); };
    CHECK(count("n") == 7);
    CHECK(count("big") == 18446744073709551615ULL);
    CHECK(count("text") == 12345678901234567890ULL);
    CHECK(count("whole") == 3);
    for (const char* bad : {"neg", "frac", "sign", "spaced", "empty", "no"}) {
        CAPTURE(bad);
        const std::string expected = std::string("p: read: expected a count at ") + bad;
        CHECK_THROWS_WITH(count(bad), doctest::Contains(expected.c_str()));
    }
    CHECK_THROWS_WITH(count("absent"), doctest::Contains("p: read: the reply has no absent"));
}

TEST_CASE("panel kit: the cookie a reply set, without its attributes, for a Cookie header") {
    const auto reply_with = [](const char* headers) {
        stand_panel_kit::Reply r;
        r.response = boost::json::parse(headers).as_object();
        return r;
    };
    CHECK(stand_panel_kit::set_cookie(reply_with(R"({"headers": {"set-cookie": "__Host-sid=abc; Path=/; HttpOnly"}})")) ==
          "__Host-sid=abc");
    CHECK(stand_panel_kit::set_cookie(reply_with(R"({"headers": {"set-cookie": "3x-ui=x"}})")) == "3x-ui=x");
    CHECK(stand_panel_kit::set_cookie(reply_with(R"({"headers": {"content-type": "text/plain"}})")).empty());
    CHECK(stand_panel_kit::set_cookie(reply_with(R"({"status": 200})")).empty());
}

TEST_CASE("panel kit: subscription URLs are made absolute") {
    using stand_panel_kit::resolve_url;
    CHECK(resolve_url("http://127.0.0.1:8000/api/", "/sub/abc") == "http://127.0.0.1:8000/sub/abc");
    CHECK(resolve_url("http://127.0.0.1:8000/api/user", "sub/abc") == "http://127.0.0.1:8000/api/sub/abc");
    CHECK(resolve_url("http://127.0.0.1:8000", "https://x.test/s") == "https://x.test/s");
    CHECK(resolve_url("http://127.0.0.1:8000/a", "//other:1/s") == "http://other:1/s");
    CHECK(stand_panel_kit::origin_of("http://h:1/p?q") == "http://h:1");
    CHECK(stand_panel_kit::path_of("http://h:1") == "/");
    CHECK(stand_panel_kit::path_of("http://h:1/p?q=1") == "/p?q=1");
}

TEST_CASE("panel kit: generated credentials are kept with mode 0600, given ones win") {
    auto dir = std::filesystem::temp_directory_path() / ("stand-cred-" + std::to_string(::getpid()));
    auto file = dir / "creds.json";
    auto first = stand_panel_kit::load_or_create_credentials(stand::cpp::Host(nullptr), file, {"admin", ""}, "Bn-", "Aa1");
    CHECK(first.username == "admin");
    CHECK(first.password.size() == 3 + 24 + 3);
    CHECK(first.password.rfind("Bn-", 0) == 0);
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    auto again = stand_panel_kit::load_or_create_credentials(stand::cpp::Host(nullptr), file, {"admin", ""});
    CHECK(again.password == first.password);
    auto given = stand_panel_kit::load_or_create_credentials(stand::cpp::Host(nullptr), file, {"admin", "wrong"});
    CHECK(given.password == "wrong");  // a user's choice is never replaced
    std::filesystem::remove_all(dir);
}

TEST_CASE("panel kit: a generated API key is kept 0600, a given one wins") {
    auto dir = std::filesystem::temp_directory_path() / ("stand-key-" + std::to_string(::getpid()));
    auto file = dir / "key";
    const stand::cpp::Host none(nullptr);
    const auto first = stand_panel_kit::load_or_create_api_key(none, file, "");
    CHECK(first.size() == 64);
    CHECK(stand_panel_kit::load_or_create_api_key(none, file, "") == first);
    CHECK(stand_panel_kit::load_or_create_api_key(none, file, "given") == "given");
    struct stat st {};
    REQUIRE(::stat(file.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    CHECK(stand_panel_kit::random_uuid().size() == 36);
    CHECK(stand_panel_kit::random_uuid()[14] == '4');
    std::filesystem::remove_all(dir);
}

TEST_CASE("panel kit: a compose file as data renders quoted YAML with the box as cgroup parent") {
    auto svc = stand_panel_kit::compose_service("db", "postgres:18.4", "stand_db");
    svc.nofile = 1024;
    svc.environment = {{"TZ", "UTC"}, {"QUOTE", "a \"b\" $${X}"}};
    svc.command = {"postgres", "-c", "x=1"};
    svc.healthcheck = stand_panel_kit::ComposeHealthcheck{{"CMD-SHELL", "pg_isready"}, "3s", "10s", "", 3};
    auto app = stand_panel_kit::compose_service("app", "app:1", "stand_app");
    app.in_box = false;
    app.depends_on = {{"db", "service_healthy"}};
    app.profiles = {"later"};
    const std::string yaml = stand_panel_kit::render_compose({{svc, app}, {"db-data"}});
    CHECK(yaml.find("services:\n  db:\n    image: \"postgres:18.4\"\n    container_name: \"stand_db\"\n"
                    "    cgroup_parent: ${STAND_CGROUP_PARENT}\n") == 0);
    CHECK(yaml.find("ulimits: {nofile: {soft: 1024, hard: 1024}}") != std::string::npos);
    CHECK(yaml.find("\"QUOTE\": \"a \\\"b\\\" $${X}\"") != std::string::npos);
    CHECK(yaml.find("command: [\"postgres\", \"-c\", \"x=1\"]") != std::string::npos);
    CHECK(yaml.find("      retries: 3\n") != std::string::npos);
    CHECK(yaml.find("start_period") == std::string::npos);
    const auto app_at = yaml.find("  app:\n");
    REQUIRE(app_at != std::string::npos);
    CHECK(yaml.find("cgroup_parent", app_at) == std::string::npos);
    CHECK(yaml.find("\"db\": {condition: \"service_healthy\"}", app_at) != std::string::npos);
    CHECK(yaml.find("    profiles:\n      - \"later\"\n", app_at) != std::string::npos);
    CHECK(yaml.ends_with("\nvolumes:\n  db-data: {}\n"));
}

TEST_CASE("panel kit: an env file as compose reads it, and its errors name the line") {
    auto dir = std::filesystem::temp_directory_path() / ("stand-env-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "ok.env") << "# a comment\n\nA=1\nB=x=y \"q\"\r\n  C=\n";
    const auto env = stand_panel_kit::read_env_file(dir / "ok.env", "test");
    CHECK(env.size() == 3);
    CHECK(env.at("A") == "1");
    CHECK(env.at("B") == "x=y \"q\"");
    CHECK(env.at("C") == "");
    std::ofstream(dir / "bad.env") << "A=1\nnot a pair\n";
    CHECK_THROWS_WITH_AS(stand_panel_kit::read_env_file(dir / "bad.env", "test"), doctest::Contains("bad.env:2: not KEY=VALUE"),
                         stand::cpp::Error);
    CHECK_THROWS_WITH_AS(stand_panel_kit::read_env_file(dir / "none.env", "test"), doctest::Contains("cannot read"),
                         stand::cpp::Error);
    std::filesystem::remove_all(dir);
}
