// What the fio probe reads from fio: `--output-format=json+` output mixed
// with fio's notes (plugins/fio/fio_output.hpp). Everything wrong with it
// is a FioOutputError naming what; nothing else may escape.
// Input: byte 0 = fio's exit code, the rest = what fio printed.
#include "fio_output.hpp"
#include "fuzz_input.hpp"

#include <cstdio>
#include <exception>

using stand::fuzz::check;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stand::fuzz::FuzzInput in(data, size);
    const int exit_code = in.byte() % 4;
    try {
        const auto report = stand_fio::read_fio_run(in.rest(), exit_code);
        for (bool write : {false, true}) {
            try {
                const auto m = stand_fio::metrics_of(report, write);
                check(m.ios > 0, "metrics are only made of a side that did I/O");
            } catch (const stand_fio::FioOutputError&) {
            }
        }
        (void)stand_fio::first_lines(report.other_lines, 3);
    } catch (const stand_fio::FioOutputError& e) {
        check(*e.what() != '\0', "a refusal says why");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped as other than FioOutputError: %s\n", e.what());
        check(false, "fio output is refused with FioOutputError only");
    }
    return 0;
}
