// Lines from a peer that may stop answering without closing (posix/line_reader.hpp).
#include "posix/line_reader.hpp"
#include "posix/unique_fd.hpp"
#include "posix/write_all.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <string>
#include <unistd.h>

using stand::posix::LineReader;
using namespace std::chrono_literals;

TEST_CASE("line reader: a line in pieces, a silent peer times out, a closed one ends") {
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    stand::posix::UniqueFd in(fds[0]), out(fds[1]);
    LineReader reader(in.get());
    std::string line;
    REQUIRE(stand::posix::write_all(out.get(), "one\ntw"));
    CHECK(reader.read_line(line, 1000ms) == LineReader::Got::line);
    CHECK(line == "one");
    const auto t0 = std::chrono::steady_clock::now();
    CHECK(reader.read_line(line, 200ms) == LineReader::Got::timeout);  // half a line is no line
    CHECK(std::chrono::steady_clock::now() - t0 >= 200ms);
    REQUIRE(stand::posix::write_all(out.get(), "o\nthree\nfour"));
    CHECK(reader.read_line(line, 1000ms) == LineReader::Got::line);
    CHECK(line == "two");
    CHECK(reader.read_line(line, 1000ms) == LineReader::Got::line);
    CHECK(line == "three");
    out.reset();
    CHECK(reader.read_line(line, 1000ms) == LineReader::Got::end);  // "four" never ended
}
