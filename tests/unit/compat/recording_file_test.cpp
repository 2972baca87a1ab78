// `stand compat --record` in the parent: exchanges unique by (label, method,
// path, status), responses merged, parts of the checks' children merged.
#include "compat/exchange_set.hpp"
#include "compat/recording_file.hpp"
#include "compat/recording_part.hpp"
#include "temp_dir.hpp"

#include <boost/json.hpp>
#include <doctest/doctest.h>

#include <fstream>

using namespace stand::compat;
namespace json = boost::json;

namespace {

json::object exchange(const std::string& label, const std::string& path, int status, const std::string& body,
                      const std::string& check, json::array cookies = {}) {
    return {{"label", label},
            {"method", "GET"},
            {"path", path},
            {"status", status},
            {"response", {{"content_type", "application/json"},
                          {"cookies", std::move(cookies)},
                          {"headers", json::array{}},
                          {"body", json::parse(body)}}},
            {"checks", json::array{check}}};
}

void write_part(const std::filesystem::path& dir, const std::string& check, const json::array& exchanges) {
    std::ofstream(RecordingPart::file_for(dir, check)) << json::serialize(json::object{{"check", check}, {"exchanges", exchanges}});
}

}  // namespace

TEST_CASE("exchange set: one entry per key, sorted, checks and responses united") {
    ExchangeSet set;
    set.add(exchange("x list", "/b", 200, R"([])", "panel.b"));
    set.add(exchange("x list", "/b", 200, R"([{"id":"number"}])", "panel.a", {"sid"}));
    set.add(exchange("x list", "/b", 404, R"({"detail":"string"})", "panel.a"));
    set.add(exchange("a login", "/login", 200, R"({"ok":"boolean"})", "panel.a"));
    REQUIRE(set.size() == 3);
    const auto sorted = set.sorted();
    CHECK(sorted[0].at("label") == "a login");
    CHECK(sorted[1].at("status") == 200);
    CHECK(sorted[2].at("status") == 404);
    CHECK(json::serialize(sorted[1].at("checks")) == R"(["panel.a","panel.b"])");
    CHECK(json::serialize(sorted[1].at("response").at("body")) == R"([{"id":"number"}])");
    CHECK(json::serialize(sorted[1].at("response").at("cookies")) == R"(["sid"])");
}

TEST_CASE("exchange set: a malformed exchange names the member") {
    ExchangeSet set;
    auto bad = exchange("x", "/", 200, "{}", "panel.a");
    bad.erase("status");
    CHECK_THROWS_WITH(set.add(bad), doctest::Contains("\"status\""));
}

TEST_CASE("recording file: the parts of the named checks merge, a missing part is reported") {
    stand::test::TempDir dir;
    write_part(dir.path(), "panel.start-ready", json::array{exchange("readiness", "/", 200, R"("text")", "panel.start-ready")});
    write_part(dir.path(), "panel.bootstrap-idempotent",
               json::array{exchange("readiness", "/", 200, R"("text")", "panel.bootstrap-idempotent"),
                           exchange("x login", "/login", 200, R"({"ok":"boolean"})", "panel.bootstrap-idempotent")});
    write_part(dir.path(), "panel.not-asked-for", json::array{exchange("other", "/", 500, R"("text")", "panel.not-asked-for")});
    auto merged = merge_recording_parts(dir.path(), {"panel.start-ready", "panel.bootstrap-idempotent", "panel.restart-keeps-users"},
                                        "x");
    CHECK(merged.missing == std::vector<std::string>{"panel.restart-keeps-users"});
    const auto& exchanges = merged.document.at("exchanges").as_array();
    REQUIRE(exchanges.size() == 2);
    CHECK(exchanges[0].at("label") == "readiness");
    CHECK(json::serialize(exchanges[0].at("checks")) == R"(["panel.bootstrap-idempotent","panel.start-ready"])");
    CHECK(merged.document.at("panel") == "x");
    CHECK(merged.document.at("origin") == "recorded");

    const auto file = dir.path() / "recording.json";
    write_recording(file, merged.document);
    std::ifstream in(file);
    std::string text((std::istreambuf_iterator<char>(in)), {});
    CHECK(json::parse(text) == json::value(merged.document));
    CHECK(text.find("\n  \"exchanges\": [\n") != std::string::npos);  // one member per line
}

TEST_CASE("recording file: a broken part names its file") {
    stand::test::TempDir dir;
    std::ofstream(RecordingPart::file_for(dir.path(), "panel.a")) << "{\"check\": 1}";
    CHECK_THROWS_WITH(merge_recording_parts(dir.path(), {"panel.a"}, "x"), doctest::Contains("panel.a.json"));
}
