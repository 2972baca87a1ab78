#include "report/text_template.hpp"

#include <algorithm>
#include <stdexcept>

namespace stand::report {

TextTemplate::TextTemplate(std::string_view text, const std::vector<std::string>& allowed) {
    auto names = [&] {
        std::string out;
        for (const auto& a : allowed) out += (out.empty() ? "{" : ", {") + a + "}";
        return out;
    };
    std::string literal;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {
            literal += c;
            ++i;
            continue;
        }
        if (c == '}') throw std::invalid_argument("unmatched '}' (write '}}' for a brace)");
        if (c != '{') {
            literal += c;
            continue;
        }
        const auto close = text.find('}', i);
        if (close == std::string_view::npos) throw std::invalid_argument("unmatched '{' (write '{{' for a brace)");
        std::string name(text.substr(i + 1, close - i - 1));
        if (std::find(allowed.begin(), allowed.end(), name) == allowed.end())
            throw std::invalid_argument("unknown placeholder {" + name + "}; known: " + names());
        if (!literal.empty()) pieces_.push_back({false, std::move(literal)});
        literal.clear();
        pieces_.push_back({true, std::move(name)});
        i = close;
    }
    if (!literal.empty()) pieces_.push_back({false, std::move(literal)});
}

bool TextTemplate::uses(std::string_view name) const {
    return std::any_of(pieces_.begin(), pieces_.end(), [&](const Piece& p) { return p.placeholder && p.text == name; });
}

std::string TextTemplate::render(const std::function<std::string(const std::string&)>& value_of) const {
    std::string out;
    for (const auto& p : pieces_) out += p.placeholder ? value_of(p.text) : p.text;
    return out;
}

}  // namespace stand::report
