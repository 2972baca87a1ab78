// The panel adapters' shared code (plugins/panel-kit): TOTP against the
// RFC 6238 test vectors, base32, URL resolution, stored credentials.
#include <stand/kits/panel/credentials.hpp>
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
