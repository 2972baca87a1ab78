#include "isolation/worker_message.hpp"

#include <doctest/doctest.h>

using namespace stand;
using isolation::WorkerMessage;

namespace {

WorkerMessage read(const char* text, std::int64_t id = 7) {
    return isolation::read_worker_message(boost::json::parse(text).as_object(), id);
}

}  // namespace

TEST_CASE("worker message: log, progress and the awaited reply are read as the worker sends them") {
    auto log = read(R"({"type":"log","level":2,"message":"started"})");
    CHECK(log.kind == WorkerMessage::Kind::log);
    CHECK(log.level == 2);
    CHECK(log.message == "started");
    auto progress = read(R"({"type":"progress","fraction":5E-1,"message":"half"})");
    CHECK(progress.kind == WorkerMessage::Kind::progress);
    CHECK(progress.fraction == 0.5);
    auto secret = read(R"({"type":"secret","value":"one-time-key"})");
    CHECK(secret.kind == WorkerMessage::Kind::secret);
    CHECK(secret.message == "one-time-key");
    CHECK(read(R"({"type":"secret","value":5})").kind == WorkerMessage::Kind::unexpected);
    auto reply = read(R"({"type":"reply","id":7,"result":-3,"error":"bind failed","output":{"a":1}})");
    CHECK(reply.kind == WorkerMessage::Kind::reply);
    CHECK(reply.code == -3);
    CHECK(reply.error == "bind failed");
    CHECK(reply.output == boost::json::parse(R"({"a":1})"));
}

// Before: m.at("level").to_number<double>() and friends threw out of
// PluginWorker::round_trip, and a "result" of 1e300 was cast to int32_t
// (undefined behaviour); the fuzz harness worker_line replays these.
TEST_CASE("worker message: a message of the wrong shape is unexpected, naming what is wrong, never a throw") {
    const std::pair<const char*, const char*> cases[] = {
        {R"({"level":2})", "no \"type\""},
        {R"({"type":"log","level":2})", "a log without a \"message\" string"},
        {R"({"type":"log","message":"m"})", "a log without an integer \"level\""},
        {R"({"type":"log","level":99999999999,"message":"m"})", "a log without an integer \"level\""},
        {R"({"type":"progress","fraction":"x","message":"m"})", "a progress without a \"fraction\" number"},
        {R"({"type":"reply","id":8,"result":0})", "a reply to another request"},
        {R"({"type":"reply","result":0})", "a reply to another request"},
        {R"({"type":"reply","id":7,"result":1e300})", "a reply without an integer \"result\""},
        {R"({"type":"reply","id":7,"result":4294967296})", "a reply without an integer \"result\""},
        {R"({"type":"reply","id":7,"result":0,"error":5})", "a reply whose \"error\" is not a string"},
        {R"({"type":"garbage","line":"x"})", "type \"garbage\""},
    };
    for (const auto& [text, problem] : cases) {
        CAPTURE(text);
        WorkerMessage m;
        CHECK_NOTHROW(m = read(text));
        CHECK(m.kind == WorkerMessage::Kind::unexpected);
        CHECK(m.problem == problem);
    }
}
