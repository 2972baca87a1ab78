// What the load engine's cases share (load/load_engine_test.cpp, against
// scripted servers, and programs/load_engine_test.cpp, against nginx): each
// case once per HTTP/1.1 engine, the spec of a run, its counts.
#pragma once

#include "load/engine_choice.hpp"
#include "load/hdr_histogram.hpp"
#include "load/load_engine.hpp"

#include <doctest/doctest.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stand::test {

// The HTTP/1.1 engine the current test case drives (EACH_ENGINE).
inline stand::load::Engine g_engine = stand::load::Engine::automatic;

// Runs the rest of the test case once on each HTTP/1.1 engine.
#define EACH_ENGINE()                                                           \
    stand::test::g_engine = stand::load::Engine::uring;                         \
    SUBCASE("io_uring") { stand::test::g_engine = stand::load::Engine::uring; } \
    SUBCASE("asio") { stand::test::g_engine = stand::load::Engine::asio; }      \
    CAPTURE(stand::load::engine_name(stand::test::g_engine))

inline stand::load::LoadSpec spec_for(std::vector<std::string> urls, unsigned threads = 1,
                                      unsigned connections = 1) {
    stand::load::LoadSpec spec;
    for (auto& u : urls) spec.links.push_back(stand::load::Link{"GET", u, {}, {}});
    spec.threads = threads;
    spec.connections = connections;
    spec.duration = std::chrono::seconds(10);
    spec.timeout = std::chrono::seconds(2);
    spec.engine = g_engine;
    return spec;
}

inline std::uint64_t status(const stand::load::LoadResult& r, int code) {
    auto it = r.status_counts.find(code);
    return it == r.status_counts.end() ? 0 : it->second;
}

inline const stand::load::HdrHistogram& hist(const std::map<std::string, stand::load::HdrHistogram>& m,
                                             const std::string& name) {
    static const stand::load::HdrHistogram empty(3'600'000'000ULL);
    auto it = m.find(name);
    return it == m.end() ? empty : it->second;
}

}  // namespace stand::test
