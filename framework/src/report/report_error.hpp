// The error of everything under report/: bad input files and specs. The
// message is complete and names where: "FILE:LINE: ..." for CSV, "FILE: $.path: ..."
// for a table spec.
#pragma once

#include "text/text_file.hpp"

#include <filesystem>
#include <stdexcept>
#include <string>

namespace stand::report {

class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A whole input file; a file that cannot be read is a ReportError naming it.
inline std::string read_input_file(const std::filesystem::path& file) {
    try {
        return text::read_text_file(file);
    } catch (const text::TextFileError& e) {
        throw ReportError(e.what());
    }
}

}  // namespace stand::report
