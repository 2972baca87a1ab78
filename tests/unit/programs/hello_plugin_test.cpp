// Drives the hello example through the C ABI exactly as the host does.
#include "host/plugin_host.hpp"
#include "loader/plugin_loader.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <stand/cpp/sink.hpp>
#include <stand/stand.h>

#include <boost/json.hpp>
#include <doctest/doctest.h>

using namespace stand;

TEST_CASE("hello: the timer-slack probe runs through the ABI and reports real overshoots") {
    auto plugin = loader::load_plugin(test::hello_plugin());
    test::TempDir dir;
    host::HostConfig config;
    config.run_dir = dir.path();
    host::PluginHost ph("hello", config);

    char message[256] = {0};
    stand_error err{sizeof(stand_error), sizeof(message), message};
    std::string cfg = R"({"sleeps": 20, "sleep_us": 500})";
    stand_instance* instance = nullptr;
    REQUIRE(plugin->entry.create(ph.get(), cfg.data(), cfg.size(), &instance, &err) == STAND_OK);
    auto* probe = static_cast<const stand_probe*>(plugin->entry.get_interface(instance, STAND_PROBE_ID));
    REQUIRE(probe != nullptr);

    cpp::StringSink jobs;
    REQUIRE(probe->list_jobs(instance, jobs.get(), &err) == STAND_OK);
    CHECK(boost::json::parse(jobs.str()).as_array().at(0).as_object().at("id") == "timer-slack");

    REQUIRE(probe->prepare(instance, "timer-slack", "{}", &err) == STAND_OK);
    cpp::StringSink result;
    REQUIRE(probe->run(instance, "timer-slack", result.get(), &err) == STAND_OK);
    auto metrics = boost::json::parse(result.str()).at("metrics").as_object();
    CHECK(metrics.at("sleeps").as_int64() == 20);
    double p50 = metrics.at("overshoot_p50_us").as_double();
    double max = metrics.at("overshoot_max_us").as_double();
    CHECK(p50 >= 0.0);  // a sleep never ends early
    CHECK(max >= p50);

    CHECK(probe->run(instance, "no-such-job", result.get(), &err) == STAND_E_NOT_FOUND);
    CHECK(std::string(message) == "hello: no job 'no-such-job' (try timer-slack)");
    CHECK(probe->cleanup(instance, "timer-slack", &err) == STAND_OK_NOTHING_TO_DO);
    plugin->entry.destroy(instance);
}
