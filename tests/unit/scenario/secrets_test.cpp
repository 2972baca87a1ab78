// Secrets by type (issue 18 D2/D12): the process's registry scrubs what the
// host writes; a config's secrets come from its plugin's schema.
#include "loader/config_secrets.hpp"
#include "rundir/run_directory.hpp"
#include "scenario/steps/subscription_secrets.hpp"
#include "text/secrets.hpp"

#include "temp_dir.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace json = boost::json;
using stand::text::kRedacted;
using stand::text::secrets;

namespace {

// Forgets the secrets a test added, whatever it did.
struct FreshSecrets {
    FreshSecrets() { secrets().clear(); }
    ~FreshSecrets() { secrets().clear(); }
};

std::string slurp(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

constexpr const char* kSchema = R"({"type": "object", "properties": {
    "username": {"type": "string"},
    "password": {"type": "string", "writeOnly": true},
    "pin": {"type": "string", "writeOnly": true},
    "node": {"type": "object", "properties": {"api_key": {"type": "string", "writeOnly": true},
                                              "port": {"type": "integer"}}}}})";

}  // namespace

TEST_CASE("secrets: every known secret is scrubbed from text, the longest first, short ones never") {
    FreshSecrets fresh;
    secrets().add("hunter2-long");
    secrets().add("hunter2");
    secrets().add("abc");  // shorter than STAND_SECRET_MIN_LENGTH: would cut words apart
    CHECK(kRedacted == "<redacted>");
    CHECK(secrets().scrub("a hunter2-long and a hunter2, abc") == "a <redacted> and a <redacted>, abc");
    CHECK(secrets().scrub("nothing here") == "nothing here");
}

TEST_CASE("secrets: JSON strings and object keys are scrubbed at any depth, numbers kept") {
    FreshSecrets fresh;
    secrets().add("s3cr3t-token");
    json::value v = json::parse(R"({"url": "http://127.0.0.1/sub/s3cr3t-token", "n": 5,
                                    "calls": [{"s3cr3t-token": "x"}, "s3cr3t-token"]})");
    const std::string out = json::serialize(secrets().scrub_json(v));
    CHECK(out.find("s3cr3t-token") == std::string::npos);
    CHECK(out.find("\"n\":5") != std::string::npos);
    CHECK(out.find("http://127.0.0.1/sub/<redacted>") != std::string::npos);
}

TEST_CASE("config secrets: writeOnly properties are redacted by the schema, nested too, short ones included") {
    FreshSecrets fresh;
    json::object config = json::parse(R"({"username": "admin", "password": "Seeded-Pass-1", "pin": "42",
                                          "node": {"api_key": "node-key-77", "port": 9}})").as_object();
    auto redacted = stand::loader::redacted_config(config, kSchema);
    CHECK(redacted.at("username") == "admin");
    CHECK(redacted.at("password") == kRedacted.data());
    CHECK(redacted.at("pin") == kRedacted.data());
    CHECK(redacted.at("node").at("api_key") == kRedacted.data());
    CHECK(redacted.at("node").at("port") == 9);
    CHECK(config.at("password") == "Seeded-Pass-1");  // the given config is left alone

    stand::loader::register_config_secrets(config, kSchema);
    CHECK(secrets().scrub("login with Seeded-Pass-1 and node-key-77") ==
          "login with <redacted> and <redacted>");
    CHECK(secrets().scrub("admin") == "admin");
}

TEST_CASE("config secrets: a plugin without a schema, or with a broken one, has no secrets") {
    FreshSecrets fresh;
    json::object config{{"password", "x-y-z-w"}};
    CHECK(stand::loader::redacted_config(config, "") == config);
    CHECK(stand::loader::redacted_config(config, "{not json") == config);
    stand::loader::register_config_secrets(config, "");
    CHECK(secrets().empty());
}

TEST_CASE("run directory: repetitions and run.json are written scrubbed, secrets.json as given, mode 0600") {
    FreshSecrets fresh;
    stand::test::TempDir tmp;
    stand::rundir::RunDirectory dir(tmp.path() / "run");
    dir.create_layout();
    secrets().add("Seeded-Pass-1");
    dir.write_run_info({{"plugins", json::array{json::object{{"config", {{"password", "Seeded-Pass-1"}}}}}}});
    dir.write_secrets({{"plugins", json::array{json::object{{"config", {{"password", "Seeded-Pass-1"}}}}}}});
    CHECK(slurp(tmp.path() / "run" / "run.json").find("Seeded-Pass-1") == std::string::npos);
    CHECK(slurp(tmp.path() / "run" / "secrets.json").find("Seeded-Pass-1") != std::string::npos);
    struct stat st {};
    REQUIRE(::stat((tmp.path() / "run" / "secrets.json").c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0600);
    REQUIRE(dir.read_secrets());
    CHECK(dir.read_secrets()->at("plugins").at(0).at("config").at("password") == "Seeded-Pass-1");

    stand::rundir::RunDirectory::write_atomically(tmp.path() / "run" / "summary.md", "| pass | Seeded-Pass-1 |\n");
    CHECK(slurp(tmp.path() / "run" / "summary.md") == "| pass | <redacted> |\n");
}

TEST_CASE("secrets: a thousand subscription tokens scrub a large document in one pass") {
    FreshSecrets fresh;
    std::string doc;
    for (int i = 0; i < 1000; ++i) {
        const std::string token = "/sub/tok" + std::to_string(100000 + i);
        secrets().add(token);
        doc += "http://127.0.0.1:2096" + token + "\n";
    }
    const std::string out = secrets().scrub(doc);
    CHECK(out.find("/sub/tok") == std::string::npos);
    CHECK(out.substr(0, 33) == "http://127.0.0.1:2096<redacted>\nh");
    // The value a caller passed is copied: its buffer may go away.
    {
        std::string temporary = "short-lived-secret";
        secrets().add(temporary);
    }
    CHECK(secrets().scrub("a short-lived-secret here") == "a <redacted> here");
}

TEST_CASE("secrets: a value every run writes in the open is refused, and stays visible everywhere") {
    FreshSecrets fresh;
    for (const std::string open : {"127.0.0.1", "127.0.0.1:24443", "::ffff:7f00:1", "[::1]:443", "10.0.0.7", "8443",
                                   "https", "HTTP", "localhost", "true", "none"}) {
        CAPTURE(open);
        CHECK_FALSE(secrets().add(open).empty());
    }
    CHECK(secrets().add("127.0.0.1") == "an IP address");
    CHECK(secrets().add("24443") == "a number (a port or a count)");
    CHECK(secrets().empty());
    CHECK(secrets().scrub("nobody listens on UDP 127.0.0.1:24443 over https") ==
          "nobody listens on UDP 127.0.0.1:24443 over https");
    // A longer value that holds an address is a secret, and hides only itself.
    CHECK(secrets().add("127.0.0.1/sub/Tk93xQ").empty());
    CHECK(secrets().add("123456").empty());  // six digits: a PIN, not a port
    CHECK(secrets().scrub("GET 127.0.0.1/sub/Tk93xQ from 127.0.0.1") == "GET <redacted> from 127.0.0.1");
}

TEST_CASE("secrets: a subscription's credential headers are secrets, its forwarding headers are not") {
    using stand::scenario::steps::describes_client;
    FreshSecrets fresh;
    stand::scenario::steps::mark_subscription_secrets(json::parse(R"({
        "url": "http://127.0.0.1:3000/api/sub/5fQk2vX9",
        "headers": {"X-Forwarded-For": "127.0.0.1", "X-Forwarded-Proto": "https", "User-Agent": "v2rayN/7.5.0",
                    "Authorization": "Bearer eyJhbGciOi", "X-Sub-Token": "tok-8d1c"}})").as_object());
    CHECK(describes_client("x-forwarded-for"));
    CHECK(describes_client("Accept-Encoding"));
    CHECK_FALSE(describes_client("Authorization"));
    CHECK(secrets().scrub("http://127.0.0.1:3000/api/sub/5fQk2vX9 via https as v2rayN/7.5.0") ==
          "http://127.0.0.1:3000<redacted> via https as v2rayN/7.5.0");
    CHECK(secrets().scrub("Bearer eyJhbGciOi tok-8d1c") == "<redacted> <redacted>");
}
