#include "load/link_pattern.hpp"

#include <stdexcept>

namespace stand::load {
namespace {

class ExprParser {
public:
    ExprParser(std::string_view pattern, std::size_t begin, std::size_t end)
        : pattern_(pattern), pos_(begin), end_(end) {}

    template <class Op>
    std::vector<Op> parse() {
        std::vector<Op> out;
        binary<Op>(out, 0);
        skip_space();
        if (pos_ != end_) fail("unexpected '" + std::string(1, pattern_[pos_]) + "'");
        return out;
    }

private:
    [[noreturn]] void fail(const std::string& why) const {
        throw std::invalid_argument("pattern '" + std::string(pattern_) + "': " + why + " at offset " +
                                    std::to_string(pos_));
    }
    void skip_space() {
        while (pos_ < end_ && (pattern_[pos_] == ' ' || pattern_[pos_] == '\t')) ++pos_;
    }
    // Precedence: 0 |, 1 ^, 2 &, 3 << >>, 4 + -, 5 * / %.
    int peek_binary(char& op, std::size_t& width) {
        skip_space();
        if (pos_ >= end_) return -1;
        const char c = pattern_[pos_];
        width = 1;
        op = c;
        switch (c) {
        case '|': return 0;
        case '^': return 1;
        case '&': return 2;
        case '+': case '-': return 4;
        case '*': case '/': case '%': return 5;
        case '<': case '>':
            if (pos_ + 1 < end_ && pattern_[pos_ + 1] == c) {
                width = 2;
                return 3;
            }
            fail("expected '" + std::string(2, c) + "'");
        default: return -1;
        }
    }
    template <class Op>
    void binary(std::vector<Op>& out, int min_level) {
        unary<Op>(out);
        for (;;) {
            char op = 0;
            std::size_t width = 0;
            const int level = peek_binary(op, width);
            if (level < min_level || level < 0) return;
            pos_ += width;
            binary<Op>(out, level + 1);
            out.push_back(Op{Op::bin, op, 0});
        }
    }
    template <class Op>
    void unary(std::vector<Op>& out) {
        skip_space();
        if (pos_ >= end_) fail("expected a value");
        const char c = pattern_[pos_];
        if (c == '-' || c == '~') {
            ++pos_;
            unary<Op>(out);
            out.push_back(Op{c == '-' ? Op::neg : Op::inv, 0, 0});
        } else if (c == '(') {
            ++pos_;
            binary<Op>(out, 0);
            skip_space();
            if (pos_ >= end_ || pattern_[pos_] != ')') fail("expected ')'");
            ++pos_;
        } else if (c == 'k' || c == 'n') {
            ++pos_;
            out.push_back(Op{c == 'k' ? Op::var_k : Op::var_n, 0, 0});
        } else if (c >= '0' && c <= '9') {
            int base = 10;
            if (c == '0' && pos_ + 1 < end_ && (pattern_[pos_ + 1] == 'x' || pattern_[pos_ + 1] == 'X')) {
                base = 16;
                pos_ += 2;
            }
            std::uint64_t v = 0;
            std::size_t digits = 0;
            for (; pos_ < end_; ++pos_, ++digits) {
                const char d = pattern_[pos_];
                int x = -1;
                if (d >= '0' && d <= '9') x = d - '0';
                else if (base == 16 && d >= 'a' && d <= 'f') x = d - 'a' + 10;
                else if (base == 16 && d >= 'A' && d <= 'F') x = d - 'A' + 10;
                if (x < 0 || x >= base) break;
                if (v > (UINT64_MAX - static_cast<unsigned>(x)) / static_cast<unsigned>(base))
                    fail("number too large");
                v = v * static_cast<unsigned>(base) + static_cast<unsigned>(x);
            }
            if (digits == 0) fail("expected hex digits");
            out.push_back(Op{Op::literal, 0, v});
        } else {
            fail("unexpected '" + std::string(1, c) + "'");
        }
    }

    std::string_view pattern_;
    std::size_t pos_;
    std::size_t end_;
};

}  // namespace

LinkPattern::LinkPattern(std::string_view pattern) : text_(pattern) {
    Part current;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '{' && i + 1 < pattern.size() && pattern[i + 1] == '{') {
            current.literal += '{';
            ++i;
        } else if (c == '}' && i + 1 < pattern.size() && pattern[i + 1] == '}') {
            current.literal += '}';
            ++i;
        } else if (c == '{') {
            const std::size_t close = pattern.find('}', i + 1);
            if (close == std::string_view::npos)
                throw std::invalid_argument("pattern '" + text_ + "': '{' at offset " + std::to_string(i) +
                                            " is not closed");
            current.program = ExprParser(pattern, i + 1, close).parse<Op>();
            parts_.push_back(std::move(current));
            current = Part{};
            i = close;
        } else if (c == '}') {
            throw std::invalid_argument("pattern '" + text_ + "': unmatched '}' at offset " + std::to_string(i) +
                                        " (write '}}' for a brace)");
        } else {
            current.literal += c;
        }
    }
    if (!current.literal.empty() || parts_.empty()) parts_.push_back(std::move(current));
}

std::string LinkPattern::render(std::uint64_t k, std::uint64_t n) const {
    std::string out;
    std::vector<std::uint64_t> stack;
    for (const Part& part : parts_) {
        out += part.literal;
        if (part.program.empty()) continue;
        stack.clear();
        for (const Op& op : part.program) {
            switch (op.kind) {
            case Op::literal: stack.push_back(op.value); break;
            case Op::var_k: stack.push_back(k); break;
            case Op::var_n: stack.push_back(n); break;
            case Op::neg: stack.back() = ~stack.back() + 1; break;
            case Op::inv: stack.back() = ~stack.back(); break;
            case Op::bin: {
                const std::uint64_t b = stack.back();
                stack.pop_back();
                std::uint64_t& a = stack.back();
                switch (op.op) {
                case '*': a *= b; break;
                case '/':
                case '%':
                    if (b == 0)
                        throw std::invalid_argument("pattern '" + text_ + "': division by zero for k=" +
                                                    std::to_string(k));
                    a = op.op == '/' ? a / b : a % b;
                    break;
                case '+': a += b; break;
                case '-': a -= b; break;
                case '<': a = b >= 64 ? 0 : a << b; break;
                case '>': a = b >= 64 ? 0 : a >> b; break;
                case '&': a &= b; break;
                case '^': a ^= b; break;
                case '|': a |= b; break;
                }
                break;
            }
            }
        }
        out += std::to_string(stack.back());
    }
    return out;
}

}  // namespace stand::load
