// stand_html_report_fixture RUN_DIR: writes the report files of RUN_DIR
// (results.json, per_rep.csv, summary.md, report.html) as write_run_report()
// does after a run, and prints the path of report.html. The screenshot test
// runs it on a copy of tests/data/html-report-run.
#include "report/run_report.hpp"

#include <exception>
#include <iostream>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::cerr << "usage: stand_html_report_fixture RUN_DIR\n";
        return 2;
    }
    try {
        const auto files = stand::report::write_run_report(argv[1]);
        std::cout << files.report_html.string() << "\n";
        return 0;
    } catch (const std::exception& e) {
        std::cerr << "stand_html_report_fixture: " << e.what() << "\n";
        return 1;
    }
}
