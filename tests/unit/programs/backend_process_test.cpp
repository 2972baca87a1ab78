// BackendProcess, the scenario's `stand backend` child (target/backend_process.hpp),
// with stand as that child.
#include "target/backend_process.hpp"
#include "temp_dir.hpp"
#include "test_paths.hpp"

#include <doctest/doctest.h>

#include <fstream>

using namespace stand;

// Issue 18 D1: a resumed run appends to the backend's log, which then holds
// the dead backend's ready line first; the repetition was configured for
// its port and failed "not ready ... HTTP 502".
TEST_CASE("backend process: the ready line is this backend's, not an earlier one's in the same log") {
    test::TempDir tmp;
    const auto log = tmp.path() / "backend-nginx_r1.log";
    std::ofstream(log) << R"({"listen":"127.0.0.1:9","control":"127.0.0.1:9","body_bytes":64,"threads":1,"ws_path":"/ws","pid":1})"
                       << "\nstand backend: SIGINT, stopping\n";
    target::BackendOptions o;
    o.stand_binary = test::stand_binary();
    o.log_file = log;
    target::BackendProcess backend(o, std::chrono::seconds(10));
    CHECK(backend.port() != 9);
    CHECK(backend.info().at("pid").to_number<int>() == backend.pid());
    CHECK(backend.stats().accepted == 0);  // its control port answers: it is the live one
}
