#include "rundir/run_tables.hpp"

#include <stdexcept>

namespace stand::rundir {
namespace {

namespace json = boost::json;

std::string text_at(const json::object& o, const char* key, const std::string& where, bool required) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr && !required) return {};
    if (v == nullptr || !v->is_string()) throw std::runtime_error("run.json: " + where + "." + key + ": expected a string");
    return std::string(v->get_string());
}

}  // namespace

json::array tables_to_json(const std::vector<RunTable>& tables) {
    json::array out;
    for (const auto& t : tables) {
        json::array rows;
        for (const auto& r : t.rows) {
            json::object row{{"label", r.label}, {"metric", r.metric}, {"format", r.format}};
            if (!r.ratio_of.empty()) row["ratio_of"] = r.ratio_of;
            if (!r.better.empty()) row["better"] = r.better;
            if (!r.unit.empty()) row["unit"] = r.unit;
            rows.push_back(std::move(row));
        }
        out.push_back({{"title", t.title}, {"layout", t.layout}, {"rows", std::move(rows)}});
    }
    return out;
}

std::vector<RunTable> tables_of_run(const json::object& run) {
    std::vector<RunTable> out;
    const json::value* tables = run.if_contains("tables");
    if (tables == nullptr) return out;
    if (!tables->is_array()) throw std::runtime_error("run.json: tables: expected an array");
    const auto& list = tables->get_array();
    for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string where = "tables[" + std::to_string(i) + "]";
        const json::object* t = list[i].if_object();
        if (t == nullptr) throw std::runtime_error("run.json: " + where + ": expected an object");
        RunTable table;
        table.title = text_at(*t, "title", where, true);
        if (auto layout = text_at(*t, "layout", where, false); !layout.empty()) table.layout = layout;
        const json::value* rows = t->if_contains("rows");
        if (rows == nullptr || !rows->is_array()) throw std::runtime_error("run.json: " + where + ".rows: expected an array");
        for (std::size_t j = 0; j < rows->get_array().size(); ++j) {
            const std::string row_where = where + ".rows[" + std::to_string(j) + "]";
            const json::object* r = rows->get_array()[j].if_object();
            if (r == nullptr) throw std::runtime_error("run.json: " + row_where + ": expected an object");
            TableRow row;
            row.label = text_at(*r, "label", row_where, true);
            row.metric = text_at(*r, "metric", row_where, true);
            if (auto f = text_at(*r, "format", row_where, false); !f.empty()) row.format = f;
            row.ratio_of = text_at(*r, "ratio_of", row_where, false);
            row.better = text_at(*r, "better", row_where, false);
            if (!row.better.empty() && row.better != "lower" && row.better != "higher")
                throw std::runtime_error("run.json: " + row_where + ".better: expected \"lower\" or \"higher\"");
            row.unit = text_at(*r, "unit", row_where, false);
            table.rows.push_back(std::move(row));
        }
        out.push_back(std::move(table));
    }
    return out;
}

}  // namespace stand::rundir
