// report/html_report: report.html from a synthetic results object and tiny
// samples files: self-contained, balanced, one chart per thing, escaped,
// deterministic. Plus the axes and the CPU series it is drawn from.
#include "report/html_report.hpp"
#include "report/html_text.hpp"
#include "report/plot_axis.hpp"
#include "report/sample_series.hpp"

#include <doctest/doctest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace rp = stand::report;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

// The <svg>...</svg> elements whose aria-label starts with `label`.
std::vector<std::string> svgs_labelled(const std::string& html, const std::string& label) {
    std::vector<std::string> out;
    for (auto at = html.find("<svg "); at != std::string::npos; at = html.find("<svg ", at + 1)) {
        const auto end = html.find("</svg>", at);
        REQUIRE(end != std::string::npos);
        std::string svg = html.substr(at, end + 6 - at);
        if (svg.find("aria-label=\"" + label) != std::string::npos) out.push_back(svg);
    }
    return out;
}

json::object load_json() {
    json::object all{{"count", 100}, {"min", 80},   {"p50", 200},    {"p75", 300}, {"p90", 900},
                     {"p99", 4000},  {"p99_9", 7000}, {"p99_99", 9000}, {"max", 12000}};
    return {{"model", "closed"}, {"connections", 4}, {"keepalive", true}, {"duration_s", 2},
            {"latency_us", {{"all", all}}}};
}

json::object rep(const std::string& key, const std::string& plugin, int n, const std::string& status, double rps) {
    json::object r{{"key", key}, {"plugin", plugin}, {"rep", n}, {"status", status}, {"findings", json::array{}}};
    if (status == "ok") {
        r["metrics"] = {{"load.rps", rps}, {"idle.mem_mean_mib", rps / 100}};
        r["loads"] = {{"load", load_json()}};
        r["windows"] = {{"load", {{"t0_s", 0.5}, {"t1_s", 1.5}}}};
    } else {
        r["metrics"] = json::object{};
        r["reason"] = "lifecycle.start: boom <b>";
        r["failed_step"] = "$.phases[0].steps[1] (start start1)";
    }
    return r;
}

json::object results() {
    json::array rows{json::object{{"label", "requests/s"}, {"metric", "load.rps"}, {"format", "%.0f"}},
                     json::object{{"label", "idle memory (MiB)"}, {"metric", "idle.mem_mean_mib"}, {"format", "%.1f"}}};
    json::array tables{json::object{{"title", "Throughput & memory"}, {"rows", rows}}};
    json::array plugins{json::object{{"id", "a"}, {"label", "x<&>y"}, {"config", json::object{}}},
                        json::object{{"id", "b"}, {"label", "beta"}, {"config", {{"workers", 2}}}}};
    json::object run{{"scenario_name", "synthetic \"run\""}, {"plugins", plugins}, {"tables", tables},
                     {"started_unix", 1700000000}, {"host_version", "0.1.0"}};
    json::array reps{rep("beta_r1", "beta", 1, "ok", 2000), rep("beta_r2", "beta", 2, "failed", 0),
                     rep("x_r1", "x<&>y", 1, "ok", 1000)};
    json::array findings{json::object{{"id", "machine-busy"}, {"scope", "x<&>y rep 1"}, {"message", "busy & slow"}}};
    return {{"schema_version", 1}, {"run", run}, {"findings", findings}, {"reps", reps}};
}

struct TempRun {
    fs::path dir = fs::temp_directory_path() / ("stand-html-report-test-" + std::to_string(::getpid()));
    TempRun() {
        fs::remove_all(dir);
        fs::create_directories(dir / "samples");
        const std::string header = "t_s,mem_current,cpu_usage_us\n";
        std::ofstream(dir / "samples/x_r1.csv") << header << "0.0,0,0\n0.25,1048576,50000\n0.5,2097152,150000\n"
                                                           "0.75,2097152,300000\n1.0,,\n1.25,3145728,400000\n";
        std::ofstream(dir / "samples/beta_r1.csv") << header << "0.0,0,0\n0.25,4194304,25000\n0.5,4194304,50000\n";
        std::ofstream(dir / "samples/beta_r2.csv") << header << "0.0,0,0\n0.25,1048576,1000\n";
    }
    ~TempRun() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("html report: self-contained, balanced, escaped and deterministic") {
    TempRun run;
    const std::string html = rp::render_html_report(results(), run.dir);

    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("</html>") != std::string::npos);
    CHECK(count(html, "<svg ") == count(html, "</svg>"));
    CHECK(count(html, "<table") == count(html, "</table>"));
    CHECK(count(html, "<figure") == count(html, "</figure>"));
    CHECK(count(html, "<section") == count(html, "</section>"));
    // Nothing fetched: no scripts, no resource references of any kind.
    for (const char* bad : {"http://", "https://", "<script", " src=", "url(", "@import", "<link", "<img"})
        CHECK_MESSAGE(html.find(bad) == std::string::npos, bad);
    for (auto at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1))
        CHECK(html[at + 6] == '#');

    // Escaped: the plugin label, the scenario name, the reason, the finding.
    CHECK(html.find("x<&>y") == std::string::npos);
    CHECK(html.find("x&lt;&amp;&gt;y") != std::string::npos);
    CHECK(html.find("synthetic &quot;run&quot;") != std::string::npos);
    CHECK(html.find("boom &lt;b&gt;") != std::string::npos);
    CHECK(html.find("busy &amp; slow") != std::string::npos);
    CHECK(html.find("Throughput &amp; memory") != std::string::npos);

    CHECK(html == rp::render_html_report(results(), run.dir));
}

TEST_CASE("html report: tables, whisker bars, a CDF per load step, a time series per repetition") {
    TempRun run;
    const std::string html = rp::render_html_report(results(), run.dir);

    SUBCASE("tables: median (min-max) with n per plugin, scenario order") {
        CHECK(count(html, "<table class=\"summary\">") == 1);
        const auto x = html.find("x&lt;&amp;&gt;y (n=1)</th>");
        const auto beta = html.find("beta (n=1)</th>");
        REQUIRE(x != std::string::npos);
        REQUIRE(beta != std::string::npos);
        CHECK(x < beta);
        CHECK(html.find("<td class=\"num\"><span>2000</span> <span class=\"range\">(2000-2000)</span></td>") != std::string::npos);
    }
    SUBCASE("bars with min-max whiskers for every table row") {
        auto bars = svgs_labelled(html, "requests/s: median per plugin");
        REQUIRE(bars.size() == 1);
        CHECK(count(bars[0], "class=\"bar\"") == 2);
        CHECK(count(bars[0], "class=\"whisker\"") == 6);  // a line and two caps per plugin
        CHECK(bars[0].find("2000 (2000\u20132000), n=1") != std::string::npos);
        CHECK(svgs_labelled(html, "idle memory (MiB): median per plugin").size() == 1);
    }
    SUBCASE("one latency CDF per load step, one line per finished repetition") {
        auto cdfs = svgs_labelled(html, "latency CDF of step ");
        REQUIRE(cdfs.size() == 1);
        CHECK(cdfs[0].find("latency CDF of step load") != std::string::npos);
        CHECK(count(cdfs[0], "<polyline") == 2);
        CHECK(count(cdfs[0], "<circle") == 16);  // 8 quantiles each
        CHECK(cdfs[0].find(">0.05</text>") != std::string::npos);  // log axis in ms: 0.08 to 12
        CHECK(cdfs[0].find(">0.1</text>") != std::string::npos);
        CHECK(cdfs[0].find(">20</text>") != std::string::npos);
        CHECK(cdfs[0].find(">p99</text>") != std::string::npos);
    }
    SUBCASE("one time series per repetition with samples, memory and CPU as polylines") {
        auto series = svgs_labelled(html, "memory and CPU over time, ");
        REQUIRE(series.size() == 3);
        for (const auto& s : series) {
            CHECK(count(s, "<polyline") >= 1);
            CHECK(s.find("points=\"") != std::string::npos);
            CHECK(s.find("memory.current (MiB)") != std::string::npos);
            CHECK(s.find("CPU (% of one CPU)") != std::string::npos);
        }
        // Ordered by plugin as the scenario lists them, then repetition.
        CHECK(series[0].find("x&lt;&amp;&gt;y rep 1") != std::string::npos);
        CHECK(series[0].find("class=\"band\"") != std::string::npos);  // the load step's window
        CHECK(count(series[0], "<polyline") == 2);
        CHECK(series[2].find("beta rep 2") != std::string::npos);
    }
    SUBCASE("failed repetitions with their reasons, and the findings") {
        const auto failed = html.find("<section id=\"failed\">");
        REQUIRE(failed != std::string::npos);
        CHECK(html.find("beta_r2", failed) != std::string::npos);
        CHECK(html.find("$.phases[0].steps[1] (start start1)", failed) != std::string::npos);
        const auto findings = html.find("What these numbers do not tell you</h2>");
        REQUIRE(findings != std::string::npos);
        CHECK(html.find("machine-busy</strong> (1x)", findings) != std::string::npos);
    }
}

TEST_CASE("html report: missing samples are a note, not an error") {
    const fs::path dir = fs::temp_directory_path() / ("stand-html-report-empty-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string html = rp::render_html_report(results(), dir);
    CHECK(svgs_labelled(html, "memory and CPU over time, ").empty());
    CHECK(html.find("No samples file") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("html report: the machine facts run.json recorded, one column per host on a fleet") {
    TempRun run;
    json::object r = results();
    CHECK(rp::render_html_report(r, run.dir).find("run.json records no machine facts.") != std::string::npos);
    r["run"].as_object()["host_facts"] = {{"cpu_model", "AMD <EPYC>"},
                                          {"cpu_governor", "not visible: no /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor"}};
    std::string html = rp::render_html_report(r, run.dir);
    const auto machine = html.find("<section id=\"machine\"><h2>Machine</h2>");
    REQUIRE(machine != std::string::npos);
    CHECK(html.find("<a href=\"#machine\">Machine</a>") != std::string::npos);
    CHECK(html.find("<tr><th>cpu_model</th><td>AMD &lt;EPYC&gt;</td></tr>", machine) != std::string::npos);
    CHECK(html.find("<tr><th>cpu_governor</th><td>not visible: no /sys/devices/system/cpu/cpu*/cpufreq/scaling_governor</td>",
                    machine) != std::string::npos);
    json::object host{{"name", "edge1"}, {"url", "ssh://edge1"}, {"clock_offset_ns", 1500000}, {"clock_uncertainty_ns", 20000},
                      {"problem", ""}, {"exit_code", 0}, {"host_facts", {{"cpu_boost", "on (/sys/devices/system/cpu/cpufreq/boost reads 1)"}}}};
    r["run"].as_object()["fleet_hosts"] = json::array{host};
    html = rp::render_html_report(r, run.dir);
    CHECK(html.find("<th>Fact</th><th>edge1</th>") != std::string::npos);
    CHECK(html.find("<tr><th>cpu_boost</th><td>on (/sys/devices/system/cpu/cpufreq/boost reads 1)</td></tr>") != std::string::npos);
}

TEST_CASE("plot axes: ticks at nice numbers") {
    auto a = rp::linear_axis(0, 7.3, 5);
    CHECK(a.lo == 0);
    CHECK(a.hi == 8);
    REQUIRE(a.ticks.size() == 5);
    CHECK(a.ticks[1].label == "2");
    auto b = rp::linear_axis(0, 0.37, 4);
    CHECK(b.hi == doctest::Approx(0.4));
    CHECK(b.ticks[1].label == "0.1");
    auto c = rp::linear_axis(0, 0, 5);  // all zero: still an axis
    CHECK(c.hi > c.lo);
    auto l = rp::log_axis(0.13, 41);  // widened to 1, 2 or 5 times a power of ten
    CHECK(l.lo == doctest::Approx(0.1));
    CHECK(l.hi == doctest::Approx(50));
    std::vector<std::string> labels;
    for (const auto& t : l.ticks)
        if (!t.label.empty()) labels.push_back(t.label);
    CHECK(labels == std::vector<std::string>{"0.1", "1", "10", "50"});
    CHECK(l.fraction(50) == doctest::Approx(1));
    labels.clear();
    for (const auto& t : rp::log_axis(0.3, 7).ticks)  // two decades or less: 2 and 5 as well
        if (!t.label.empty()) labels.push_back(t.label);
    CHECK(labels == std::vector<std::string>{"0.2", "0.5", "1", "2", "5", "10"});
}

TEST_CASE("sample series: MiB, and CPU percent between samples with short intervals merged") {
    auto s = rp::parse_sample_series(
        "t_s,mem_current,cpu_usage_us\n0,1048576,0\n1,2097152,500000\n1.01,2097152,505000\n2,,1000000\n", "s.csv");
    CHECK(s.rows == 4);
    REQUIRE(s.memory_mib.size() == 3);
    CHECK(s.memory_mib[1].y == doctest::Approx(2));
    REQUIRE(s.cpu_pct.size() == 2);  // the 10 ms interval is merged into the next
    CHECK(s.cpu_pct[0].x == doctest::Approx(0.5));
    CHECK(s.cpu_pct[0].y == doctest::Approx(50));
    CHECK(s.cpu_pct[1].y == doctest::Approx(50));
    CHECK_THROWS_WITH(rp::parse_sample_series("t_s,x\n1,2\n", "s.csv"), "s.csv:1: no column 'mem_current'");
}

TEST_CASE("html text: entities and locale-free numbers") {
    CHECK(rp::html_escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;");
    CHECK(rp::fixed(1.25, 1) == "1.2");
    CHECK(rp::fixed(-0.04, 1) == "0.0");
    CHECK(rp::fixed(1234.5, 0) == "1234");
}
