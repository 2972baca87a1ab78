// The error of everything under report/: bad input files and specs. The
// message is complete and names where: "FILE:LINE: ..." for CSV, "FILE: $.path: ..."
// for a table spec.
#pragma once

#include <stdexcept>

namespace stand::report {

class ReportError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace stand::report
