// Text for HTML and SVG output: entity escaping and locale-independent numbers.
#pragma once

#include <string>
#include <string_view>

namespace stand::report {

// & < > " ' as entities: safe in element content and in quoted attributes;
// what XML 1.0 cannot hold as U+FFFD (text::xml_escape).
std::string html_escape(std::string_view text);

// `value` with exactly `decimals` digits after the point ("-0.0" never: a
// value that rounds to zero is written without a sign); "nan"/"inf" as such.
// Independent of the C locale, so the same input gives the same bytes.
std::string fixed(double value, int decimals);

}  // namespace stand::report
