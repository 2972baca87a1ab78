// A generator's histogram file (load/histogram_file.hpp, stand.hdr/1 per
// class), as another host wrote it: read strictly, refused with
// std::invalid_argument naming the key; what is accepted writes back as the
// same JSON and merges with itself into twice its counts.
#include "fuzz_input.hpp"
#include "load/hdr_json.hpp"
#include "load/histogram_file.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <exception>
#include <stdexcept>

using stand::fuzz::check;
namespace load = stand::load;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    boost::system::error_code ec;
    const auto input = boost::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), ec);
    if (ec) return 0;
    try {
        const auto set = load::histogram_set_from_json(input);
        const auto again = load::histogram_set_from_json(load::histogram_set_to_json(set));
        check(load::histogram_set_to_json(again) == load::histogram_set_to_json(set), "a read set writes back the same");
        const auto twice = load::merge_histogram_sets({set, set});
        for (const auto& [name, h] : set.latency) {
            check(twice.latency.at(name).count() == 2 * h.count(), "a set merged with itself has twice the count");
            check(twice.latency.at(name).value_at_percentile(99) == h.value_at_percentile(99),
                  "merging a set with itself keeps its percentiles");
        }
    } catch (const std::invalid_argument& e) {
        check(*e.what() != '\0', "a refusal names the key");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped as other than invalid_argument: %s\n", e.what());
        check(false, "a histogram file is refused with std::invalid_argument only");
    }
    return 0;
}
