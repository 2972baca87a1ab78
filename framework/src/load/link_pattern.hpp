// Per-link text from a pattern, for client identities such as
// X-Forwarded-For: literal text with integer expressions in braces.
//
//   10.{k>>8&255}.{k&255}.7      k = the link's index (0-based), n = link count
//
// Expressions: decimal or 0x integers, k, n, parentheses, unary - ~, and the
// C operators * / % + - << >> & ^ | with C precedence, on unsigned 64-bit
// integers. "{{" and "}}" are literal braces.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stand::load {

// The seed harness's X-Forwarded-For: a distinct 10.x.y.7 per link.
inline constexpr std::string_view kDefaultXffPattern = "10.{k>>8&255}.{k&255}.7";

class LinkPattern {
public:
    // Throws std::invalid_argument naming the position of the error.
    explicit LinkPattern(std::string_view pattern);

    // Throws std::invalid_argument on a division by zero.
    std::string render(std::uint64_t k, std::uint64_t n) const;
    const std::string& text() const noexcept { return text_; }

private:
    struct Op {
        enum Kind : std::uint8_t { literal, var_k, var_n, neg, inv, bin } kind;
        char op = 0;  // for bin: * / % + - < (<<) > (>>) & ^ |
        std::uint64_t value = 0;
    };
    struct Part {
        std::string literal;  // text before the expression
        std::vector<Op> program;  // RPN; empty for a trailing literal
    };
    std::string text_;
    std::vector<Part> parts_;
};

}  // namespace stand::load
