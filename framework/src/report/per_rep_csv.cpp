#include "report/per_rep_csv.hpp"

#include "report/csv.hpp"
#include "text/number_format.hpp"
#include "report/report_error.hpp"
#include "text/text_file.hpp"

#include <charconv>
#include <cmath>
#include <map>
#include <tuple>

namespace stand::report {
namespace {

template <typename T>
bool parse_whole(const std::string& text, T& out) {
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, out);
    return ec == std::errc() && ptr == end;
}

}  // namespace

std::vector<PerRepRow> parse_per_rep_csv(std::string_view text, const std::string& source) {
    const auto records = parse_csv(text, source);
    auto fail = [&](std::size_t line, const std::string& what) -> void {
        throw ReportError(source + ":" + std::to_string(line) + ": " + what);
    };
    if (records.empty()) fail(1, "empty file: expected the header plugin,rep,metric,value");
    const auto& header = records.front();
    if (header.fields.size() != 4 || (header.fields[0] != "plugin" && header.fields[0] != "panel") ||
        header.fields[1] != "rep" || header.fields[2] != "metric" || header.fields[3] != "value")
        fail(header.line, "expected the header plugin,rep,metric,value (or panel,rep,metric,value)");

    std::vector<PerRepRow> rows;
    rows.reserve(records.size() - 1);
    std::map<std::tuple<std::string, std::int64_t, std::string>, std::size_t> seen;  // -> line
    for (std::size_t i = 1; i < records.size(); ++i) {
        const auto& r = records[i];
        if (r.fields.size() != 4)
            fail(r.line, "expected 4 fields (plugin,rep,metric,value), got " + std::to_string(r.fields.size()));
        PerRepRow row;
        row.plugin = r.fields[0];
        row.metric = r.fields[2];
        if (row.plugin.empty()) fail(r.line, "empty plugin");
        if (row.metric.empty()) fail(r.line, "empty metric");
        if (!parse_whole(r.fields[1], row.rep) || row.rep < 0)
            fail(r.line, "rep '" + r.fields[1] + "' is not an integer >= 0");
        if (!parse_whole(r.fields[3], row.value) || !std::isfinite(row.value))
            fail(r.line, "value '" + r.fields[3] + "' of metric '" + row.metric + "' is not a finite number");
        auto [it, inserted] = seen.emplace(std::make_tuple(row.plugin, row.rep, row.metric), r.line);
        if (!inserted)
            fail(r.line, "a second value for plugin '" + row.plugin + "', rep " + std::to_string(row.rep) +
                             ", metric '" + row.metric + "' (first on line " + std::to_string(it->second) + ")");
        rows.push_back(std::move(row));
    }
    return rows;
}

std::vector<PerRepRow> read_per_rep_csv(const std::filesystem::path& file) {
    constexpr std::uintmax_t kMaxCsvBytes = 1u << 30;  // a run's own output: large runs write many rows
    return parse_per_rep_csv(read_input_file(file, kMaxCsvBytes), file.string());
}

void write_per_rep_csv(std::ostream& out, std::span<const PerRepRow> rows) {
    out << "plugin,rep,metric,value\n";
    for (const auto& r : rows)
        out << csv_field(r.plugin) << ',' << r.rep << ',' << csv_field(r.metric) << ',' << text::format_shortest(r.value)
            << '\n';
}

}  // namespace stand::report
