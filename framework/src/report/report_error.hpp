// The error of everything under report/: bad input files and specs. The
// message is complete and names where: "FILE:LINE: ..." for CSV, "FILE: $.path: ..."
// for a table spec.
#pragma once

#include "text/text_file.hpp"

#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace stand::report {

class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A whole input file, a regular file of at most `max_bytes`
// (text::read_input_file); one that cannot be read is a ReportError naming it.
inline std::string read_input_file(const std::filesystem::path& file,
                                   std::uintmax_t max_bytes = text::kMaxInputFileBytes) {
    try {
        return text::read_input_file(file, max_bytes);
    } catch (const text::TextFileError& e) {
        throw ReportError(e.what());
    }
}

}  // namespace stand::report
