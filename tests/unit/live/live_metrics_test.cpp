// The live figures of `stand run --metrics-listen` (framework/src/live/):
// their text in both formats (names, escaping, # EOF), the families a
// snapshot makes, and the listener on a real socket.
#include "backend/backend_error.hpp"
#include "live/live_figures.hpp"
#include "live/live_metrics.hpp"
#include "live/metric_text.hpp"
#include "live/metrics_server.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>

#include <doctest/doctest.h>

#include <limits>
#include <string>

using namespace stand::live;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::vector<MetricFamily> counter_and_info() {
    MetricFamily counter{"stand_load_completed", MetricType::counter, "", "Responses\\n \"so far\"\nsecond line", {}};
    counter.samples.push_back({{{"plugin", "a\"b\\c\nd"}, {"step", "keepalive"}}, 42, ""});
    MetricFamily info{"stand_run", MetricType::info, "", "The run.", {{{{"scenario", "quick"}}, 1, ""}}};
    MetricFamily bytes{"stand_box_memory_bytes", MetricType::gauge, "bytes", "Memory.", {{{}, 1048576, ""}}};
    MetricFamily empty{"stand_nothing", MetricType::gauge, "", "No sample: not written.", {}};
    return {counter, info, bytes, empty};
}

struct Reply {
    unsigned status = 0;
    std::string content_type, body;
};

Reply get(const boost::asio::ip::tcp::endpoint& at, const std::string& target, const std::string& accept) {
    namespace http = boost::beast::http;
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect(at);
    http::request<http::empty_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1");
    if (!accept.empty()) request.set(http::field::accept, accept);
    request.keep_alive(false);
    http::write(socket, request);
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(socket, buffer, response);
    return {response.result_int(), std::string(response[http::field::content_type]), response.body()};
}

}  // namespace

TEST_CASE("live metrics: OpenMetrics text names counters with _total, escapes labels and HELP, ends with # EOF") {
    const std::string text = render_metrics(counter_and_info(), MetricFormat::open_metrics);
    CHECK(has(text, "# TYPE stand_load_completed counter\n"));
    CHECK(has(text, "# HELP stand_load_completed Responses\\\\n \\\"so far\\\"\\nsecond line\n"));
    CHECK(has(text, "stand_load_completed_total{plugin=\"a\\\"b\\\\c\\nd\",step=\"keepalive\"} 42\n"));
    CHECK(has(text, "# TYPE stand_run info\n# HELP stand_run The run.\nstand_run_info{scenario=\"quick\"} 1\n"));
    CHECK(has(text, "# TYPE stand_box_memory_bytes gauge\n# UNIT stand_box_memory_bytes bytes\n"));
    CHECK(has(text, "stand_box_memory_bytes 1048576\n"));
    CHECK_FALSE(has(text, "stand_nothing"));
    CHECK(text.ends_with("\n# EOF\n"));
}

TEST_CASE("live metrics: text format 0.0.4 names families as their samples, has no UNIT or EOF, info as a gauge") {
    const std::string text = render_metrics(counter_and_info(), MetricFormat::prometheus_text);
    CHECK(has(text, "# TYPE stand_load_completed_total counter\n"));
    CHECK(has(text, "# HELP stand_load_completed_total Responses\\\\n \"so far\"\\nsecond line\n"));
    CHECK(has(text, "stand_load_completed_total{plugin=\"a\\\"b\\\\c\\nd\",step=\"keepalive\"} 42\n"));
    CHECK(has(text, "# TYPE stand_run_info gauge\n"));
    CHECK_FALSE(has(text, "# UNIT"));
    CHECK_FALSE(has(text, "# EOF"));
}

TEST_CASE("live metrics: the format follows Accept, numbers, NaN and infinities as both formats spell them") {
    CHECK(format_for_accept("application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5") ==
          MetricFormat::open_metrics);
    CHECK(format_for_accept("*/*") == MetricFormat::prometheus_text);
    CHECK(format_for_accept("") == MetricFormat::prometheus_text);
    CHECK(content_type(MetricFormat::open_metrics) == "application/openmetrics-text; version=1.0.0; charset=utf-8");
    MetricFamily g{"stand_g", MetricType::gauge, "", "g", {{{{"k", "1"}}, 0.25, ""}, {{{"k", "2"}}, std::numeric_limits<double>::quiet_NaN(), ""},
                                                          {{{"k", "3"}}, std::numeric_limits<double>::infinity(), ""}, {{{"k", "4"}}, 3e9, ""}}};
    const std::string text = render_metrics({g}, MetricFormat::open_metrics);
    CHECK(has(text, "stand_g{k=\"1\"} 0.25\n"));
    CHECK(has(text, "stand_g{k=\"2\"} NaN\n"));
    CHECK(has(text, "stand_g{k=\"3\"} +Inf\n"));
    CHECK(has(text, "stand_g{k=\"4\"} 3e+09\n"));  // the shortest form that reads back: both formats take it
}

TEST_CASE("live metrics: a snapshot's families: the run always, the step and load while there is one, the box") {
    LiveFigures figures("quick \"one\"");
    figures.set_planned(3);
    std::string text = render_metrics(live_metric_families(figures.snapshot()), MetricFormat::open_metrics);
    CHECK(has(text, "stand_run_info{scenario=\"quick \\\"one\\\"\"} 1\n"));
    CHECK(has(text, "stand_run_repetitions_planned 3\n"));
    CHECK(has(text, "stand_run_repetitions_finished_total{status=\"ok\"} 0\n"));
    CHECK_FALSE(has(text, "stand_step_info"));
    CHECK_FALSE(has(text, "stand_load_"));
    CHECK_FALSE(has(text, "stand_box_"));

    figures.repetition_started(2, "nginx", 1, 12.0);
    figures.step_started({"load", "keepalive", "load"});
    LoadFigures load;
    load.step = "keepalive";
    load.offered_rate = 500;
    load.achieved_rate = 498.5;
    load.completed = 1000;
    load.recent = LatencyQuantiles{0.001, 0.002, 0.003, 0.004};
    load.latency_count = 1000;
    load.latency_sum_s = 1.5;
    figures.load_update(load);
    const BoxSourceScope box(&figures, [] { return BoxFigures{0.5, 1 << 20}; });
    text = render_metrics(live_metric_families(figures.snapshot()), MetricFormat::open_metrics);
    const std::string labels = "plugin=\"nginx\",repetition=\"1\"";
    CHECK(has(text, "stand_run_eta_seconds 12\n"));
    CHECK(has(text, "stand_run_repetition{" + labels + "} 2\n"));
    CHECK(has(text, "stand_step_info{" + labels + ",phase=\"load\",step=\"keepalive\",kind=\"load\"} 1\n"));
    CHECK(has(text, "stand_load_completed_total{" + labels + ",step=\"keepalive\"} 1000\n"));
    CHECK(has(text, "stand_load_offered_rate{" + labels + ",step=\"keepalive\"} 500\n"));
    CHECK(has(text, "stand_load_latency_seconds{" + labels + ",step=\"keepalive\",quantile=\"0.99\"} 0.003\n"));
    CHECK(has(text, "stand_load_latency_seconds_count{" + labels + ",step=\"keepalive\"} 1000\n"));
    CHECK(has(text, "stand_box_cpu_cores 0.5\n"));
    CHECK(has(text, "stand_box_memory_bytes 1048576\n"));

    figures.repetition_finished("ok");
    figures.repetition_finished("interrupted");
    text = render_metrics(live_metric_families(figures.snapshot()), MetricFormat::open_metrics);
    CHECK(has(text, "stand_run_repetitions_finished_total{status=\"ok\"} 1\n"));
    CHECK(has(text, "stand_run_repetitions_finished_total{status=\"failed\"} 0\n"));
    CHECK(has(text, "stand_load_running{" + labels + ",step=\"keepalive\"} 0\n"));
    CHECK_FALSE(has(text, "stand_step_info"));
}

TEST_CASE("live metrics: the box source goes with its scope") {
    LiveFigures figures("s");
    {
        const BoxSourceScope box(&figures, [] { return BoxFigures{1.0, 5}; });
        CHECK(figures.snapshot().box.has_value());
    }
    CHECK_FALSE(figures.snapshot().box.has_value());
}

TEST_CASE("live metrics: the listener serves /metrics in the format asked for, 404 elsewhere, a busy port is refused") {
    LiveFigures figures("served");
    MetricsServer server({boost::asio::ip::make_address("127.0.0.1"), 0}, figures);
    REQUIRE(server.endpoint().port() != 0);
    const Reply open = get(server.endpoint(), "/metrics", "application/openmetrics-text;version=1.0.0");
    CHECK(open.status == 200);
    CHECK(open.content_type == "application/openmetrics-text; version=1.0.0; charset=utf-8");
    CHECK(has(open.body, "stand_run_info{scenario=\"served\"} 1\n"));
    CHECK(open.body.ends_with("# EOF\n"));
    const Reply plain = get(server.endpoint(), "/metrics", "");
    CHECK(plain.content_type == "text/plain; version=0.0.4; charset=utf-8");
    CHECK(has(plain.body, "# TYPE stand_run_info gauge\n"));
    CHECK(get(server.endpoint(), "/", "").status == 404);
    CHECK_THROWS_AS(MetricsServer(server.endpoint(), figures), stand::backend::BackendError);
}
