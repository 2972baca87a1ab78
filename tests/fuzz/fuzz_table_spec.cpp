// `stand report`'s inputs: a table spec (report/table_spec.hpp) rendered
// over per-rep rows read from a per_rep.csv (report/per_rep_csv.hpp). Both
// are files a user hands over; each is refused with a ReportError naming
// it, anything else escaping is a finding.
// Input: the spec JSON, optionally followed by a line "--" and the CSV text
// (without it, or when the CSV is refused, the rows are a fixed set made
// for the metrics the spec names).
#include "fuzz_input.hpp"
#include "report_rows.hpp"
#include "report/per_rep_csv.hpp"
#include "report/report_error.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"

#include <exception>
#include <vector>

using stand::fuzz::check;
namespace report = stand::report;

namespace {

constexpr std::string_view kCsvMark = "\n--\n";

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const auto mark = input.find(kCsvMark);
    try {
        const auto spec = report::parse_table_spec_text(input.substr(0, mark), "spec.json");
        std::vector<report::PerRepRow> rows;
        if (mark != std::string_view::npos) {
            try {
                rows = report::parse_per_rep_csv(input.substr(mark + kCsvMark.size()), "per_rep.csv");
            } catch (const report::ReportError& e) {
                check(std::string_view(e.what()).find("per_rep.csv") != std::string_view::npos,
                      "a CSV refusal names the file");
            }
        }
        if (rows.empty()) rows = stand::fuzz::rows_for(spec);
        const std::string markdown = report::render_markdown(rows, spec, "per_rep.csv");
        check(!markdown.empty() || spec.rows.empty(), "a table with rows renders to text");
    } catch (const report::ReportError& e) {
        check(std::string_view(e.what()).find(".json") != std::string_view::npos ||
                  std::string_view(e.what()).find("per_rep.csv") != std::string_view::npos,
              "a refusal names the file");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped as other than ReportError: %s\n", e.what());
        check(false, "table specs are refused with ReportError only");
    }
    return 0;
}
