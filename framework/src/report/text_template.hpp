// "{name}" placeholders in spec texts: "{median} ({min}-{max})",
// "{plugin} (n={n})". "{{" and "}}" are literal braces. The allowed names are
// fixed per use and checked when the template is parsed.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace stand::report {

class TextTemplate {
public:
    TextTemplate() = default;
    // Throws std::invalid_argument naming an unknown placeholder or a stray brace.
    TextTemplate(std::string_view text, const std::vector<std::string>& allowed);

    bool uses(std::string_view name) const;
    std::string render(const std::function<std::string(const std::string&)>& value_of) const;

private:
    struct Piece {
        bool placeholder = false;
        std::string text;  // the literal, or the placeholder's name
    };
    std::vector<Piece> pieces_;
};

}  // namespace stand::report
