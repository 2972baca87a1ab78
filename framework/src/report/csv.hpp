// RFC 4180 CSV: records of fields separated by commas, records ended by LF or
// CRLF; a field may be quoted with '"', and then holds commas, line breaks and
// '""' for one quote. Blank lines are skipped; a UTF-8 BOM is ignored.
// Anything else (a quote inside an unquoted field, text after a closing quote,
// a bare CR, an unterminated quote) is an error naming the line.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

struct CsvRecord {
    std::size_t line = 0;  // 1-based line where the record starts
    std::vector<std::string> fields;
};

// Throws ReportError "SOURCE:LINE: ...".
std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& source);

// `field` as a CSV field: quoted (quotes doubled) only when it holds a comma,
// a quote, CR or LF, as Python's csv.writer does (QUOTE_MINIMAL).
std::string csv_field(std::string_view field);

}  // namespace stand::report
