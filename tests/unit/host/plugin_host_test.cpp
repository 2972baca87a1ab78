#include "host/plugin_host.hpp"
#include "text/secrets.hpp"
#include "temp_dir.hpp"

#include <stand/cpp/host.hpp>
#include <stand/stand.h>

#include <doctest/doctest.h>

#include <sys/stat.h>

#include <chrono>
#include <thread>

using namespace stand;

namespace {

host::HostConfig config_in(const test::TempDir& dir, std::vector<std::string>* lines = nullptr) {
    host::HostConfig c;
    c.run_dir = dir.path() / "run";
    if (lines)
        c.log = [lines](int level, const std::string& id, const std::string& msg) {
            lines->push_back(std::to_string(level) + " " + id + " " + msg);
        };
    return c;
}

// A plugin host whose log lines and forwarded secrets are kept, with the
// process's secrets forgotten before and after.
struct SecretsHost {
    test::TempDir dir;
    std::vector<std::string> lines, forwarded;
    host::PluginHost ph{"demo", [this] {
                            auto config = config_in(dir, &lines);
                            config.secret = [this](const std::string& s) { forwarded.push_back(s); };
                            text::secrets().clear();
                            return config;
                        }()};
    cpp::Host h{ph.get()};
    ~SecretsHost() { text::secrets().clear(); }
};

}  // namespace

TEST_CASE("host table: identity, log with plugin id, services by id") {
    test::TempDir dir;
    std::vector<std::string> lines;
    host::PluginHost ph("demo", config_in(dir, &lines));
    const stand_host* h = ph.get();
    CHECK(h->struct_size == sizeof(stand_host));
    CHECK(h->abi.major == STAND_ABI_MAJOR);
    CHECK(std::string(h->name) == "stand");
    h->log(h, STAND_LOG_WARNING, "careful");
    REQUIRE(lines.size() == 1);
    CHECK(lines[0] == "30 demo careful");

    for (const char* id : {STAND_CLOCK_SERVICE_ID, STAND_FILES_SERVICE_ID, STAND_HTTP_SERVICE_ID,
                           STAND_PROCESS_SERVICE_ID, STAND_PROGRESS_SERVICE_ID, STAND_SECRETS_SERVICE_ID}) {
        INFO(id);
        auto* table = static_cast<const uint32_t*>(h->get_service(h, id));
        REQUIRE(table != nullptr);
        CHECK(*table >= 16);
    }
    CHECK(h->get_service(h, "stand.http/2") == nullptr);
    CHECK(h->get_service(h, "org.example.nothing/1") == nullptr);
}

TEST_CASE("secrets service: a marked value is scrubbed from the plugin's log lines and passed on") {
    SecretsHost sh;
    sh.h.mark_secret("one-time-key-5e1");
    sh.h.mark_secret("abc");  // too short to hide as a part of other text
    sh.h.info("setup with one-time-key-5e1 done (abc)");
    CHECK(sh.lines.back() == "20 demo setup with <redacted> done (abc)");
    CHECK(sh.forwarded == std::vector<std::string>{"one-time-key-5e1"});
    const auto* host = sh.ph.get();
    const auto* t = static_cast<const stand_secrets_service*>(host->get_service(host, STAND_SECRETS_SERVICE_ID));
    REQUIRE(t != nullptr);
    t->mark(host, nullptr, 5);  // NULL: ignored, never a crash
}

TEST_CASE("secrets service: a value that is no secret is not hidden, a warning says so, naming no number") {
    SecretsHost sh;
    sh.h.mark_secret("127.0.0.1");
    REQUIRE(sh.lines.size() == 1);
    CHECK(sh.lines.back().rfind("30 demo stand.secrets/1: \"127.0.0.1\" is an IP address, not a secret", 0) == 0);
    sh.h.mark_secret("48213");
    CHECK(sh.lines.back().rfind("30 demo stand.secrets/1: a value of 5 digits is a number", 0) == 0);
    CHECK(sh.lines.back().find("48213") == std::string::npos);
    CHECK(sh.forwarded.empty());
    sh.h.info("listening on 127.0.0.1");
    CHECK(sh.lines.back() == "20 demo listening on 127.0.0.1");
}

TEST_CASE("files service: data dir is per plugin, private, under the run dir") {
    test::TempDir dir;
    host::PluginHost ph("demo", config_in(dir));
    cpp::Host h(ph.get());
    std::string data = h.data_dir();
    CHECK(data == (std::filesystem::absolute(dir.path() / "run") / "data" / "demo").string());
    struct stat st{};
    REQUIRE(::stat(data.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0700);
    CHECK(h.run_dir() == std::filesystem::absolute(dir.path() / "run").string());
    // A mode a plugin gave it later (searchable by a process's own user) stays.
    REQUIRE(::chmod(data.c_str(), 0711) == 0);
    CHECK(h.data_dir() == data);
    REQUIRE(::stat(data.c_str(), &st) == 0);
    CHECK((st.st_mode & 0777) == 0711);
}

TEST_CASE("clock service: monotonic, and sleep is cut short by cancellation") {
    test::TempDir dir;
    host::PluginHost ph("demo", config_in(dir));
    const auto& clock = *static_cast<const stand_clock_service*>(ph.get()->get_service(ph.get(), STAND_CLOCK_SERVICE_ID));
    uint64_t a = clock.monotonic_ns(ph.get());
    CHECK(clock.sleep_ns(ph.get(), 2'000'000) == STAND_OK);
    uint64_t b = clock.monotonic_ns(ph.get());
    CHECK(b - a >= 2'000'000);
    CHECK(clock.wall_ns(ph.get()) > 1'600'000'000ull * 1'000'000'000ull);

    const auto& progress =
        *static_cast<const stand_progress_service*>(ph.get()->get_service(ph.get(), STAND_PROGRESS_SERVICE_ID));
    CHECK(progress.cancelled(ph.get()) == 0);
    ph.cancel();
    CHECK(progress.cancelled(ph.get()) == 1);
    uint64_t c = clock.monotonic_ns(ph.get());
    CHECK(clock.sleep_ns(ph.get(), 10'000'000'000ull) == STAND_E_CANCELLED);
    CHECK(clock.monotonic_ns(ph.get()) - c < 1'000'000'000ull);
}

TEST_CASE("process service: a wait ends with STAND_E_CANCELLED once the host cancels, a poll does not") {
    test::TempDir dir;
    host::PluginHost ph("demo", config_in(dir));
    const auto& proc = *static_cast<const stand_process_service*>(ph.get()->get_service(ph.get(), STAND_PROCESS_SERVICE_ID));
    stand_process child = 0;
    char message[256] = {0};
    stand_error err{sizeof(stand_error), sizeof(message), message};
    REQUIRE(proc.spawn(ph.get(), R"({"argv": ["sleep", "30"]})", &child, &err) == STAND_OK);
    stand_process_status status{sizeof(stand_process_status), 0, 0, 0, 0};
    CHECK(proc.wait(ph.get(), child, 50, &status, &err) == STAND_E_TIMEOUT);

    std::thread canceller([&ph] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        ph.cancel();
    });
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(proc.wait(ph.get(), child, -1, &status, &err) == STAND_E_CANCELLED);
    canceller.join();
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(1));
    CHECK(std::string(message).rfind("cancelled while waiting for process ", 0) == 0);
    CHECK(status.state == STAND_PROCESS_RUNNING);
    CHECK(proc.wait(ph.get(), child, 0, &status, &err) == STAND_E_TIMEOUT);  // a poll still answers
    proc.release(ph.get(), child);
}

TEST_CASE("service thunks turn bad arguments into codes and messages, never exceptions") {
    test::TempDir dir;
    host::PluginHost ph("demo", config_in(dir));
    const auto& http = *static_cast<const stand_http_service*>(ph.get()->get_service(ph.get(), STAND_HTTP_SERVICE_ID));
    char message[256] = {0};
    stand_error err{sizeof(stand_error), sizeof(message), message};
    stand_http_session session = 0;
    CHECK(http.session_open(ph.get(), "{not json", &session, &err) == STAND_E_INVALID_ARGUMENT);
    CHECK(std::string(message).find("session options is not valid JSON") == 0);
    CHECK(http.session_open(ph.get(), nullptr, nullptr, &err) == STAND_E_INVALID_ARGUMENT);

    const auto& proc =
        *static_cast<const stand_process_service*>(ph.get()->get_service(ph.get(), STAND_PROCESS_SERVICE_ID));
    stand_process handle = 0;
    CHECK(proc.spawn(ph.get(), "[]", &handle, &err) == STAND_E_INVALID_ARGUMENT);
    CHECK(std::string(message) == "spawn spec must be a JSON object");
    CHECK(proc.spawn(ph.get(), R"({"argv":["true"],"box":"measured"})", &handle, &err) == STAND_E_INVALID_ARGUMENT);
    CHECK(std::string(message).find("unknown box 'measured'") != std::string::npos);
}
