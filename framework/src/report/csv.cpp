#include "report/csv.hpp"

#include "report/report_error.hpp"

namespace stand::report {
namespace {

class Parser {
public:
    Parser(std::string_view text, const std::string& source) : text_(text), source_(source) {
        if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
    }

    std::vector<CsvRecord> run() {
        std::vector<CsvRecord> records;
        while (pos_ < text_.size()) {
            if (at_line_end()) {  // blank line
                consume_line_end();
                continue;
            }
            CsvRecord record;
            record.line = line_;
            for (;;) {
                record.fields.push_back(field());
                if (pos_ >= text_.size()) break;
                if (text_[pos_] == ',') {
                    ++pos_;
                    continue;
                }
                consume_line_end();  // field() stops only at ',', a line end or the end
                break;
            }
            records.push_back(std::move(record));
        }
        return records;
    }

private:
    [[noreturn]] void fail(std::size_t line, const std::string& what) const {
        throw ReportError(source_ + ":" + std::to_string(line) + ": " + what);
    }

    bool at_line_end() const {
        return text_[pos_] == '\n' || (text_[pos_] == '\r' && pos_ + 1 < text_.size() && text_[pos_ + 1] == '\n');
    }

    void consume_line_end() {
        if (text_[pos_] == '\r') ++pos_;
        ++pos_;  // '\n'
        ++line_;
    }

    std::string field() {
        std::string out;
        if (pos_ < text_.size() && text_[pos_] == '"') {
            const std::size_t start_line = line_;
            ++pos_;
            for (;;) {
                if (pos_ >= text_.size()) fail(start_line, "unterminated quoted field");
                const char c = text_[pos_++];
                if (c == '"') {
                    if (pos_ < text_.size() && text_[pos_] == '"') {
                        out += '"';
                        ++pos_;
                        continue;
                    }
                    break;
                }
                if (c == '\n') ++line_;
                out += c;
            }
            if (pos_ < text_.size() && text_[pos_] != ',' && !at_line_end())
                fail(line_, "unexpected text after a closing quote (a field is quoted as a whole, quotes doubled)");
            return out;
        }
        while (pos_ < text_.size() && text_[pos_] != ',' && !at_line_end()) {
            const char c = text_[pos_];
            if (c == '"') fail(line_, "quote inside an unquoted field (quote the whole field and double the quote)");
            if (c == '\r') fail(line_, "carriage return without a line feed");
            out += c;
            ++pos_;
        }
        return out;
    }

    std::string_view text_;
    const std::string& source_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
};

}  // namespace

std::vector<CsvRecord> parse_csv(std::string_view text, const std::string& source) {
    return Parser(text, source).run();
}

std::string csv_field(std::string_view field) {
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(field);
    std::string out = "\"";
    for (char c : field) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

}  // namespace stand::report
