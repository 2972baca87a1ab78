// What a probe plugin's run() returns (scenario/probe_result.hpp): the host
// reads it strictly, latency histogram included, and refuses anything else
// with std::invalid_argument naming the key. A plugin is not trusted.
#include "fuzz_input.hpp"
#include "scenario/probe_result.hpp"

#include <boost/json.hpp>

#include <cmath>
#include <cstdio>
#include <exception>
#include <stdexcept>

using stand::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    boost::system::error_code ec;
    const auto output = boost::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), ec);
    if (ec) return 0;  // the worker passes text that is not JSON on as a string, refused below too
    try {
        const auto result = stand::scenario::read_probe_result(output);
        for (const auto& [name, value] : result.metrics) check(!name.empty(), "a metric has a name");
    } catch (const std::invalid_argument& e) {
        check(*e.what() != '\0', "a refusal names the key");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped as other than invalid_argument: %s\n", e.what());
        check(false, "a probe result is refused with std::invalid_argument only");
    }
    return 0;
}
