// A run directory's report tables (rundir/run_tables.hpp) as `stand report`
// and `--resume` read them back from run.json, made into table specs
// (report/table_spec.hpp run_table_spec) and rendered. run.json may have
// been edited or damaged: a wrong shape is a std::runtime_error naming
// run.json and the key, a bad format a ReportError; nothing else escapes.
#include "fuzz_input.hpp"
#include "report/report_error.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"
#include "report_rows.hpp"
#include "rundir/run_tables.hpp"

#include <boost/json.hpp>

#include <cstdio>
#include <exception>
#include <stdexcept>

using stand::fuzz::check;
namespace report = stand::report;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    boost::system::error_code ec;
    const auto run = boost::json::parse(std::string_view(reinterpret_cast<const char*>(data), size), ec);
    if (ec || !run.is_object()) return 0;  // refused before the tables are read (rundir/run_files.cpp)
    try {
        const auto tables = stand::rundir::tables_of_run(run.as_object());
        check(boost::json::value(stand::rundir::tables_to_json(tables)) ==
                  boost::json::value(stand::rundir::tables_to_json(
                      stand::rundir::tables_of_run({{"tables", stand::rundir::tables_to_json(tables)}}))),
              "tables written back read the same");
        for (const auto& table : tables) {
            try {
                const auto spec = report::run_table_spec(table, {"alpha", "beta|gamma"}, "run.json");
                (void)report::render_markdown(stand::fuzz::rows_for(spec), spec, "results.json");
            } catch (const report::ReportError& e) {
                check(std::string_view(e.what()).starts_with("run.json"), "a refusal names run.json");
            }
        }
    } catch (const report::ReportError& e) {
        std::fprintf(stderr, "fuzz: ReportError outside a table: %s\n", e.what());
        check(false, "only run_table_spec refuses with ReportError");
    } catch (const std::runtime_error& e) {
        check(std::string_view(e.what()).starts_with("run.json"), "a refusal names run.json");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped: %s\n", e.what());
        check(false, "run.json's tables are refused with std::runtime_error only");
    }
    return 0;
}
