#include "scenario/json_text.hpp"

#include "scenario/json_reader.hpp"

#include <boost/json/basic_parser_impl.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace stand::scenario {
namespace {

namespace json = boost::json;

json::parse_options scenario_options() {
    json::parse_options options;
    options.allow_comments = true;
    options.allow_trailing_commas = true;
    return options;
}

// A basic_parser handler that builds nothing: it tracks where it is (for the
// JSON path) and stops at the first key repeated in an object, which
// boost::json::parse would silently resolve to the last value, and at the
// first number beyond a double's range, which it would make infinite (and
// run.json unreadable: JSON has no infinity).
class StrictJsonCheck {
public:
    static constexpr std::size_t max_object_size = std::size_t(-1);
    static constexpr std::size_t max_array_size = std::size_t(-1);
    static constexpr std::size_t max_key_size = std::size_t(-1);
    static constexpr std::size_t max_string_size = std::size_t(-1);

    explicit StrictJsonCheck(const std::filesystem::path& file) : file_(file) {}

    // Where the document was refused, and why ("expected ..., got ..."), once found.
    const std::optional<JsonPlace>& refused_at() const noexcept { return refused_at_; }
    const std::string& refusal() const noexcept { return refusal_; }

    bool on_document_begin(json::error_code&) { return true; }
    bool on_document_end(json::error_code&) { return true; }
    bool on_object_begin(json::error_code&) { return open(true); }
    bool on_object_end(std::size_t, json::error_code&) { return close(); }
    bool on_array_begin(json::error_code&) { return open(false); }
    bool on_array_end(std::size_t, json::error_code&) { return close(); }
    bool on_key_part(json::string_view s, std::size_t, json::error_code& ec) {
        key_.append(s.data(), s.size());
        return no_nul(s, ec);
    }
    bool on_key(json::string_view s, std::size_t, json::error_code& ec) {
        if (!no_nul(s, ec)) return false;
        key_.append(s.data(), s.size());
        Frame& frame = frames_.back();
        frame.key = key_;
        key_.clear();
        if (frame.keys.insert(frame.key).second) return true;
        return refuse("expected each key once in an object, got " + json::serialize(json::value(frame.key)) + " again",
                      ec);
    }
    bool on_string_part(json::string_view s, std::size_t, json::error_code& ec) { return no_nul(s, ec); }
    bool on_string(json::string_view s, std::size_t, json::error_code& ec) { return no_nul(s, ec) && done(); }
    bool on_number_part(json::string_view s, json::error_code&) {
        number_.append(s.data(), s.size());
        return true;
    }
    bool on_int64(std::int64_t, json::string_view, json::error_code&) { return number_done(); }
    bool on_uint64(std::uint64_t, json::string_view, json::error_code&) { return number_done(); }
    bool on_double(double d, json::string_view s, json::error_code& ec) {
        number_.append(s.data(), s.size());
        if (std::string why = number_refusal(d, number_); !why.empty()) return refuse(std::move(why), ec);
        return number_done();
    }
    bool on_bool(bool, json::error_code&) { return done(); }
    bool on_null(json::error_code&) { return done(); }
    bool on_comment_part(json::string_view, json::error_code&) { return true; }
    bool on_comment(json::string_view, json::error_code&) { return true; }

private:
    struct Frame {
        bool is_object = false;
        std::size_t index = 0;  // arrays: the element being read
        std::string key;        // objects: the key being read
        std::set<std::string> keys;
    };

    bool open(bool is_object) {
        frames_.push_back(Frame{is_object, 0, {}, {}});
        return true;
    }
    bool close() {
        frames_.pop_back();
        return done();
    }
    bool done() {
        if (!frames_.empty() && !frames_.back().is_object) ++frames_.back().index;
        return true;
    }
    bool number_done() {
        number_.clear();
        return done();
    }
    // A NUL would end the text early where it becomes a path or an argument.
    bool no_nul(json::string_view s, json::error_code& ec) {
        if (s.find('\0') == json::string_view::npos) return true;
        return refuse("expected text without NUL characters (\\u0000), got a string holding one", ec);
    }
    bool refuse(std::string why, json::error_code& ec) {
        refused_at_ = place();
        refusal_ = std::move(why);
        ec = json::error::syntax;  // only stops the parser; refusal() says why
        return false;
    }
    JsonPlace place() const {
        JsonPlace p(file_);
        for (const Frame& f : frames_) p = f.is_object ? p.key(f.key) : p.index(f.index);
        return p;
    }

    std::filesystem::path file_;
    std::vector<Frame> frames_;
    std::string key_;
    std::string number_;  // the text of the number being read
    std::optional<JsonPlace> refused_at_;
    std::string refusal_;
};

}  // namespace

std::string number_refusal(double value, std::string_view text) {
    const std::string got = ", got " + std::string(text);
    if (!std::isfinite(value)) return "expected a number within a double's range (at most about 1.8e308)" + got;
    const std::string_view mantissa = text.substr(0, text.find_first_of("eE"));
    const bool underflow = value == 0 && mantissa.find_first_of("123456789") != std::string_view::npos;  // 1e-401
    if ((value != 0 && !std::isnormal(value)) || underflow)
        return "expected 0 or a number of magnitude at least about 2.2e-308 (a double's smallest normal)" + got;
    if (text.find_first_of(".eE") == std::string_view::npos)
        return "expected an integer within -9223372036854775808..18446744073709551615" + got;
    return {};
}

json::value parse_json_text(std::string_view text, const std::filesystem::path& file_for_messages) {
    // A UTF-8 byte order mark, which some editors write (RFC 8259 lets a parser ignore it).
    if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
    const json::parse_options options = scenario_options();
    json::basic_parser<StrictJsonCheck> checker(options, file_for_messages);
    json::error_code ec;
    const std::size_t consumed = checker.write_some(false, text.data(), text.size(), ec);
    // write_some stops after one complete document (and trailing whitespace or comments).
    if (!ec && consumed < text.size()) ec = json::error::extra_data;
    if (ec) {
        const StrictJsonCheck& check = checker.handler();
        if (check.refused_at()) check.refused_at()->fail_message(check.refusal());
        const std::string_view before = text.substr(0, std::min(consumed, text.size()));
        const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
        const std::size_t line_start = before.rfind('\n') == std::string_view::npos ? 0 : before.rfind('\n') + 1;
        throw ScenarioError(file_for_messages, line, before.size() - line_start + 1, "invalid JSON: " + ec.message());
    }
    return json::parse(json::string_view(text.data(), text.size()), {}, options);
}

}  // namespace stand::scenario
