// What a scenario is refused for before anything runs, found by issue 18's
// break-it probe: each case failed later (exit 4) or passed silently before.
#include "scenario/scenario_error.hpp"
#include "scenario/scenario_parser.hpp"
#include "temp_dir.hpp"
#include "scenario_errors.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include <sys/stat.h>

using namespace stand::scenario;
using stand::test::error_of;

namespace {

std::string scenario(const std::string& params, const std::string& config) {
    return R"({"schema_version": 1, "name": "t", "params": )" + params +
           R"(, "plugins": [{"id": "p", "config": )" + config +
           R"(}], "phases": [{"name": "x", "steps": [{"step": "sleep", "duration_s": "${d}"}]}]})";
}

}  // namespace

// D3: 1e309 became Infinity in run.json, which then no reader could parse.
TEST_CASE("scenario refusals: a number beyond a double's range, in params, a plugin config or --param") {
    CHECK(error_of(scenario(R"({"d": 1e309})", "{}")) ==
          "t.json: $.params.d: expected a number within a double's range (at most about 1.8e308), got 1e309");
    CHECK(error_of(scenario(R"({"d": 1})", R"({"limits": [1, -1e400]})")) ==
          "t.json: $.plugins[0].config.limits[1]: expected a number within a double's range (at most about 1.8e308), "
          "got -1e400");
    CHECK(error_of(scenario(R"({"d": 1})", "{}"), {{"d", "1e309"}}) ==
          "t.json: $.params: --param d=1e309: expected a number within a double's range (at most about 1.8e308)");
    CHECK(error_of(scenario(R"({"d": 1, "big": 1.7e308})", "{}")).empty());  // the largest are fine
}

// D10: an object given with --param passed, though a file's params must be scalars.
TEST_CASE("scenario refusals: --param with an object, an array or null") {
    const std::string text = scenario(R"({"d": 1})", "{}");
    for (const char* value : {R"({"a": 1})", "[1]", "null"}) {
        CAPTURE(value);
        CHECK(error_of(text, {{"d", value}}) == std::string("t.json: $.params: --param d=") + value +
                                                    ": expected a number, string or boolean, as the file's params are");
    }
    CHECK(error_of(text, {{"d", "2"}}).empty());
}

// D4: such labels passed, then the run ended with exit 4 (the box's run id),
// and "../../../x/ESCAPED" made --resume read a file outside the run.
TEST_CASE("scenario refusals: a label that cannot name files and cgroups") {
    const auto with_label = [](const std::string& label) {
        return R"({"schema_version": 1, "name": "t", "plugins": [{"id": "p", "label": )" + label +
               R"(}], "phases": [{"name": "x", "steps": [{"step": "start"}]}]})";
    };
    for (const char* label : {R"("a b")", R"("a/b")", R"("50%")", R"("../../../x/ESCAPED")", R"(".hidden")"}) {
        CAPTURE(std::string(label));
        CHECK(error_of(with_label(label)).find("t.json: $.plugins[0].label: expected a label of 1 to 64 letters, "
                                               "digits, '_', '-' and '.', not starting with '.'") == 0);
    }
    CHECK(error_of(with_label(R"("nul\u0000")")) ==
          "t.json: $.plugins[0].label: expected text without NUL characters (\\u0000), got a string holding one");
    CHECK(error_of(with_label(R"("")")) == "t.json: $.plugins[0].label: expected a non-empty string, got \"\"");
    CHECK_FALSE(error_of(with_label('"' + std::string(65, 'a') + '"')).empty());
    CHECK(error_of(with_label('"' + std::string(64, 'a') + '"')).empty());
    CHECK(error_of(with_label(R"("nginx-2w.v1_a")")).empty());
    // A path without a label takes its file name.
    const auto path = parse_scenario_text(R"({"schema_version": 1, "name": "t", "plugins": ["./build/x/my-proxy.so"],
        "phases": [{"name": "x", "steps": [{"step": "start"}]}]})", "t.json");
    CHECK(path.plugins[0].label == "my-proxy");
    CHECK(error_of(R"({"schema_version": 1, "name": "t", "plugins": ["./x/a b.so"],
        "phases": [{"name": "x", "steps": [{"step": "start"}]}]})")
              .find("t.json: $.plugins[0]: expected a plugin whose file name makes a label") == 0);
}

// D5: such a pin passed, then "internal error: cannot write '99' to .../cpuset.cpus".
TEST_CASE("scenario refusals: box.pin names CPUs this machine does not have") {
    const auto with_pin = [](const std::string& pin) {
        return R"({"schema_version": 1, "name": "t", "plugins": ["p"], "box": {"pin": ")" + pin +
               R"("}, "phases": [{"name": "x", "steps": [{"step": "start"}]}]})";
    };
    for (const char* pin : {"4095", "0-4095"}) {
        CAPTURE(pin);
        CHECK(error_of(with_pin(pin)).find("t.json: $.box.pin: expected CPUs this machine has (online: ") == 0);
    }
    CHECK(error_of(with_pin("0")).empty());
}

// D9: `stand run /dev/zero` grew to 1 GB; a FIFO as scenario file blocked forever.
TEST_CASE("scenario refusals: a scenario file that is no regular file, or too large") {
    auto error_of_file = [](const std::filesystem::path& file) {
        try {
            parse_scenario_file(file);
        } catch (const ScenarioError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error_of_file("/dev/zero") ==
          "/dev/zero: cannot read the file: not a regular file (a FIFO, socket or device); give a file");
    stand::test::TempDir tmp;
    const auto fifo = tmp.path() / "scenario.fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(error_of_file(fifo).find("not a regular file") != std::string::npos);  // at once, not blocked
    const auto big = tmp.path() / "big.json";
    {
        std::ofstream out(big);
        out << "{\"schema_version\": 1, \"description\": \"" << std::string(5u << 20, 'x') << "\"}";
    }
    CHECK(error_of_file(big).find("bytes, more than the 4194304 an input file may have") != std::string::npos);
}

// D8: a tunnel step's sink beyond this machine was accepted (the server would dial it).
TEST_CASE("scenario refusals: a tunnel's sink off this machine, unless allow_remote") {
    const auto with_sink = [](const std::string& sink, bool allow_remote) {
        return R"({"schema_version": 1, "name": "t", "plugins": ["p"], "allow_remote": )" +
               std::string(allow_remote ? "true" : "false") +
               R"(, "phases": [{"name": "x", "steps": [{"step": "tunnel_throughput", "server": "hysteria2://a@127.0.0.1:4443/?insecure=1", "sink": ")" +
               sink + R"("}]}]})";
    };
    CHECK(error_of(with_sink("10.0.0.1:80", false))
              .find("t.json: $.phases[0].steps[0].sink: expected host:port on this machine (refusing the sink "
                    "'10.0.0.1:80'") == 0);
    CHECK(error_of(with_sink("10.0.0.1:80", true)).empty());
    CHECK(error_of(with_sink("127.0.0.1:80", false)).empty());
    const std::string remote_server = R"({"schema_version": 1, "name": "t", "plugins": ["p"], "phases": [{"name": "x",
        "steps": [{"step": "tunnel_throughput", "server": "hysteria2://a@hy.example.com:443/", "sink": "127.0.0.1:9"}]}]})";
    CHECK(error_of(remote_server)
              .find("t.json: $.phases[0].steps[0].server: expected a hysteria2:// link to this machine") == 0);
}

// D10: a file saved with a UTF-8 byte order mark was "1:1: invalid JSON: syntax error".
TEST_CASE("scenario refusals: a UTF-8 byte order mark is not a syntax error") {
    const std::string text = R"({"schema_version": 1, "name": "t", "plugins": ["p"],
        "phases": [{"name": "x", "steps": [{"step": "start"}]}]})";
    CHECK(error_of("\xEF\xBB\xBF" + text).empty());
    CHECK(parse_scenario_text("\xEF\xBB\xBF" + text, "t.json").name == "t");
    // ... but only at the start.
    CHECK(error_of(text.substr(0, 1) + "\xEF\xBB\xBF" + text.substr(1)).find("t.json:1:2: invalid JSON") == 0);
}

// D10: a NUL in a string (a path, an argument) would end it early; a
// subnormal duration (1e-320) is no duration; an integer beyond 64 bits was
// read back as another integer ("got -9223372036854775808").
TEST_CASE("scenario refusals: a NUL in a string or key, a subnormal number, an integer beyond 64 bits") {
    CHECK(error_of(scenario(R"({"d": 1, "dir": "/var/tmp\u0000/x"})", "{}")) ==
          "t.json: $.params.dir: expected text without NUL characters (\\u0000), got a string holding one");
    CHECK(error_of(scenario(R"({"d": 1})", R"({"a\u0000b": 1})")).find("expected text without NUL characters") !=
          std::string::npos);
    CHECK(error_of(scenario(R"({"d": 1e-320})", "{}")) ==
          "t.json: $.params.d: expected 0 or a number of magnitude at least about 2.2e-308 (a double's smallest "
          "normal), got 1e-320");
    CHECK(error_of(scenario(R"({"d": -9223372036854775809})", "{}")) ==
          "t.json: $.params.d: expected an integer within -9223372036854775808..18446744073709551615, got "
          "-9223372036854775809");
    CHECK(error_of(scenario(R"({"d": 1})", "{}"), {{"d", "1e-320"}}) ==
          "t.json: $.params: --param d=1e-320: expected 0 or a number of magnitude at least about 2.2e-308 (a "
          "double's smallest normal)");
    CHECK(error_of(scenario(R"({"d": 1})", "{}"), {{"d", "-9223372036854775809"}}) ==
          "t.json: $.params: --param d=-9223372036854775809: expected an integer within "
          "-9223372036854775808..18446744073709551615");
    CHECK(error_of(scenario(R"({"d": 1, "e": -9223372036854775808, "f": 2.5e-308, "g": 0.0})", "{}")).empty());
    // Below a double's range altogether: read as 0, which the file does not say.
    CHECK(error_of(scenario(R"({"d": 1e-401})", "{}")) ==
          "t.json: $.params.d: expected 0 or a number of magnitude at least about 2.2e-308 (a double's smallest "
          "normal), got 1e-401");
    CHECK(error_of(scenario(R"({"d": 1})", "{}"), {{"d", "0." + std::string(400, '0') + "1"}}).find(
              "expected 0 or a number of magnitude at least about 2.2e-308") != std::string::npos);
    CHECK(error_of(scenario(R"({"d": 1, "e": 0e5, "f": -0.000, "g": 0E-999})", "{}")).empty());
}
