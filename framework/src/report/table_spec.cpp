#include "report/table_spec.hpp"

#include "report/report_error.hpp"
#include "text/text_file.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <cmath>
#include <set>

namespace stand::report {
namespace json = boost::json;

namespace {

const std::vector<std::string> kHeaderPlaceholders{"plugin", "n"};
const std::vector<std::string> kCellPlaceholders{"median", "min", "max", "n", "ci_low", "ci_high"};

class SpecReader {
public:
    explicit SpecReader(const TableSpec& spec) : spec_(spec) {}

    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw ReportError(spec_.where(path, what));
    }

    const json::object& object(const json::value& v, const std::string& path) const {
        if (!v.is_object()) fail(path, "expected an object");
        return v.get_object();
    }

    // Every key of `o` must be in `known`.
    void only_keys(const json::object& o, const std::string& path, std::initializer_list<std::string_view> known) const {
        for (const auto& kv : o)
            if (std::find(known.begin(), known.end(), std::string_view(kv.key())) == known.end()) {
                std::string list;
                for (auto k : known) list += (list.empty() ? "" : ", ") + std::string(k);
                fail(path, "unknown key '" + std::string(kv.key()) + "' (known: " + list + ")");
            }
    }

    std::string string(const json::value& v, const std::string& path) const {
        if (!v.is_string()) fail(path, "expected a string");
        return std::string(v.get_string());
    }

    std::string nonempty_line(const json::value& v, const std::string& path) const {
        auto s = string(v, path);
        if (s.empty()) fail(path, "must not be empty");
        if (s.find_first_of("\r\n") != std::string::npos) fail(path, "must be one line");
        return s;
    }

    bool boolean(const json::value& v, const std::string& path) const {
        if (!v.is_bool()) fail(path, "expected true or false");
        return v.get_bool();
    }

    double number(const json::value& v, const std::string& path) const {
        if (!v.is_number()) fail(path, "expected a number");
        const double d = v.to_number<double>();
        if (!std::isfinite(d)) fail(path, "expected a finite number");
        return d;
    }

    TextTemplate text_template(const json::value& v, const std::string& path,
                               const std::vector<std::string>& allowed) const {
        auto s = string(v, path);
        if (s.find_first_of("\r\n") != std::string::npos) fail(path, "must be one line");
        try {
            return TextTemplate(s, allowed);
        } catch (const std::invalid_argument& e) {
            fail(path, e.what());
        }
    }

    RepRule rep_rule(const json::value& v, const std::string& path) const {
        RepRule rule;
        if (v.is_string()) {
            if (v.get_string() != "all") fail(path, "expected \"all\" or an object with_metric, with_nonzero_metric or any_of");
            return rule;
        }
        const auto& o = object(v, path);
        if (o.size() != 1) fail(path, "expected exactly one of with_metric, with_nonzero_metric, any_of");
        const auto& [key, value] = *o.begin();
        const std::string sub = path + "." + std::string(key);
        if (key == "with_metric" || key == "with_nonzero_metric") {
            rule.kind = key == "with_metric" ? RepRule::Kind::with_metric : RepRule::Kind::with_nonzero_metric;
            rule.metric = nonempty_line(value, sub);
        } else if (key == "any_of") {
            rule.kind = RepRule::Kind::any_of;
            if (!value.is_array() || value.get_array().empty()) fail(sub, "expected a non-empty array of rules");
            const auto& a = value.get_array();
            for (std::size_t i = 0; i < a.size(); ++i)
                rule.rules.push_back(rep_rule(a[i], sub + "[" + std::to_string(i) + "]"));
        } else {
            fail(path, "unknown key '" + std::string(key) + "' (known: with_metric, with_nonzero_metric, any_of)");
        }
        return rule;
    }

    RowSpec row(const json::value& v, const std::string& path) const {
        const auto& o = object(v, path);
        only_keys(o, path, {"label", "metric", "format", "optional", "missing_as", "ratio_of"});
        for (const char* required : {"label", "metric", "format"})
            if (!o.contains(required)) fail(path, std::string("missing key '") + required + "'");
        RowSpec r;
        r.path = path;
        r.label = nonempty_line(o.at("label"), path + ".label");
        r.metric = nonempty_line(o.at("metric"), path + ".metric");
        try {
            r.format = text::PrintfFormat(string(o.at("format"), path + ".format"));
        } catch (const std::invalid_argument& e) {
            fail(path + ".format", e.what());
        }
        if (auto* opt = o.if_contains("optional")) r.optional = boolean(*opt, path + ".optional");
        if (auto* m = o.if_contains("missing_as")) r.missing_as = number(*m, path + ".missing_as");
        if (auto* of = o.if_contains("ratio_of")) r.ratio_of = nonempty_line(*of, path + ".ratio_of");
        return r;
    }

private:
    const TableSpec& spec_;
};

json::value parse_json(std::string_view text, const std::string& source) {
    json::stream_parser parser;
    boost::system::error_code ec;
    const std::size_t consumed = parser.write(text.data(), text.size(), ec);
    if (!ec) parser.finish(ec);
    if (ec) {
        const std::size_t at = std::min(consumed, text.size());
        const auto line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
        const auto last_nl = text.rfind('\n', at == 0 ? 0 : at - 1);
        const std::size_t column = last_nl == std::string_view::npos || at == 0 ? at + 1 : at - last_nl;
        throw ReportError(source + ":" + std::to_string(line) + ":" + std::to_string(column) +
                          ": invalid JSON: " + ec.message());
    }
    return parser.release();
}

}  // namespace

std::string TableSpec::where(const std::string& path, const std::string& what) const {
    return source + ": " + path + ": " + what;
}

namespace {

TableSpec default_spec(const std::string& source) {
    TableSpec spec;
    spec.source = source;
    spec.column_header = TextTemplate("{plugin} (n={n})", kHeaderPlaceholders);
    spec.cell = TextTemplate("{median} ({min}-{max})", kCellPlaceholders);
    return spec;
}

}  // namespace

TableSpec parse_table_spec(const json::value& doc, const std::string& source) {
    TableSpec spec = default_spec(source);
    SpecReader rd(spec);

    const auto& o = rd.object(doc, "$");
    rd.only_keys(o, "$",
                 {"description", "columns", "values_from", "n_counts", "metric_header", "column_header", "cell",
                  "missing", "text_before", "text_after", "rows"});
    if (auto* d = o.if_contains("description")) rd.string(*d, "$.description");
    if (auto* c = o.if_contains("columns")) {
        if (c->is_string()) {
            if (c->get_string() == "first_seen") spec.column_order = TableSpec::ColumnOrder::first_seen;
            else if (c->get_string() == "sorted") spec.column_order = TableSpec::ColumnOrder::sorted;
            else rd.fail("$.columns", "expected \"first_seen\", \"sorted\" or an array of plugin names");
        } else if (c->is_array()) {
            spec.column_order = TableSpec::ColumnOrder::declared;
            const auto& a = c->get_array();
            if (a.empty()) rd.fail("$.columns", "must name at least one plugin");
            std::set<std::string> seen;
            for (std::size_t i = 0; i < a.size(); ++i) {
                const std::string path = "$.columns[" + std::to_string(i) + "]";
                auto name = rd.nonempty_line(a[i], path);
                if (!seen.insert(name).second) rd.fail(path, "plugin '" + name + "' listed twice");
                spec.columns.push_back(std::move(name));
            }
        } else {
            rd.fail("$.columns", "expected \"first_seen\", \"sorted\" or an array of plugin names");
        }
    }
    if (auto* v = o.if_contains("values_from")) spec.values_from = rd.rep_rule(*v, "$.values_from");
    if (auto* v = o.if_contains("n_counts")) spec.n_counts = rd.rep_rule(*v, "$.n_counts");
    if (auto* v = o.if_contains("metric_header")) spec.metric_header = rd.nonempty_line(*v, "$.metric_header");
    if (auto* v = o.if_contains("column_header"))
        spec.column_header = rd.text_template(*v, "$.column_header", kHeaderPlaceholders);
    if (auto* v = o.if_contains("cell")) spec.cell = rd.text_template(*v, "$.cell", kCellPlaceholders);
    if (auto* v = o.if_contains("missing")) spec.missing = rd.nonempty_line(*v, "$.missing");
    if (auto* v = o.if_contains("text_before")) spec.text_before = rd.string(*v, "$.text_before");
    if (auto* v = o.if_contains("text_after")) spec.text_after = rd.string(*v, "$.text_after");

    const auto* rows = o.if_contains("rows");
    if (rows == nullptr) rd.fail("$", "missing key 'rows'");
    if (!rows->is_array() || rows->get_array().empty()) rd.fail("$.rows", "expected a non-empty array of rows");
    const auto& a = rows->get_array();
    for (std::size_t i = 0; i < a.size(); ++i) spec.rows.push_back(rd.row(a[i], "$.rows[" + std::to_string(i) + "]"));
    return spec;
}

TableSpec run_table_spec(const rundir::RunTable& table, const std::vector<std::string>& columns,
                         const std::string& source) {
    TableSpec spec = default_spec(source);
    if (!columns.empty()) {
        spec.column_order = TableSpec::ColumnOrder::declared;
        spec.columns = columns;
    }
    for (std::size_t i = 0; i < table.rows.size(); ++i) {
        const rundir::TableRow& r = table.rows[i];
        RowSpec row;
        row.path = "$.rows[" + std::to_string(i) + "]";
        row.label = r.label;
        row.metric = r.metric;
        try {
            row.format = text::PrintfFormat(r.format);
        } catch (const std::exception& e) {
            throw ReportError(spec.where(row.path + ".format", e.what()));
        }
        row.optional = true;
        row.ratio_of = r.ratio_of;
        spec.rows.push_back(std::move(row));
    }
    return spec;
}

TableSpec parse_table_spec_text(std::string_view text, const std::string& source) {
    return parse_table_spec(parse_json(text, source), source);
}

TableSpec load_table_spec(const std::filesystem::path& file) {
    return parse_table_spec_text(read_input_file(file), file.string());
}

}  // namespace stand::report
