// Reproduction of the seed harness's six published tables: each rendered from
// its per_rep.csv with its table spec (tests/data/seed-harness/specs/) must
// equal the published Markdown cell for cell and byte for byte.
#include "report/per_rep_csv.hpp"
#include "report/table.hpp"
#include "report/table_spec.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace rp = stand::report;

namespace {

const std::filesystem::path kSeed = std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests/data/seed-harness";

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    REQUIRE(in.good());
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// The cells of a Markdown table line "| a | b |" (split at " | ", no escapes in the seed tables).
std::vector<std::string> cells_of(const std::string& line) {
    REQUIRE(line.size() >= 4);
    REQUIRE(line.substr(0, 2) == "| ");
    REQUIRE(line.substr(line.size() - 2) == " |");
    const std::string inner = line.substr(2, line.size() - 4);
    std::vector<std::string> out;
    std::size_t start = 0;
    for (;;) {
        const auto bar = inner.find(" | ", start);
        out.push_back(inner.substr(start, bar - start));
        if (bar == std::string::npos) break;
        start = bar + 3;
    }
    return out;
}

std::vector<std::string> table_lines(const std::string& markdown) {
    std::vector<std::string> lines;
    std::istringstream in(markdown);
    for (std::string line; std::getline(in, line);)
        if (line.rfind("| ", 0) == 0) lines.push_back(line);
    return lines;
}

}  // namespace

TEST_CASE("report: the seed harness's six tables are reproduced from per_rep.csv and table specs") {
    struct Case {
        const char* table;
        const char* results;  // tests/data/seed-harness/HARNESS.md §3: which run each table aggregates
        std::size_t plugins;
        std::size_t metric_rows;
    };
    const std::vector<Case> cases{
        {"table_main", "main", 4, 28},         {"table_onebox", "onebox", 4, 54},
        {"table_box1g", "box1g", 4, 54},       {"table_mgvariants", "mgvariants", 2, 28},
        {"table_coldpass", "coldpass", 4, 28}, {"table_box_pin2", "box_pin2", 4, 54},
    };
    std::size_t total_cells = 0;
    for (const auto& c : cases) {
        CAPTURE(c.table);
        const auto csv = kSeed / "results" / c.results / "per_rep.csv";
        const auto spec = rp::load_table_spec(kSeed / "specs" / (std::string(c.table) + ".json"));
        const auto rows = rp::read_per_rep_csv(csv);
        const rp::Table table = rp::build_table(rows, spec, csv.string());
        const std::string expected = slurp(kSeed / (std::string(c.table) + ".md"));

        // Cell for cell: the header cells, then every metric cell.
        const auto lines = table_lines(expected);
        REQUIRE(lines.size() == 1 + c.metric_rows);  // header + rows ("|---|" does not start with "| ")
        const auto header = cells_of(lines[0]);
        REQUIRE(header.size() == 1 + c.plugins);
        REQUIRE(table.columns.size() == c.plugins);
        CHECK(header[0] == spec.metric_header);
        for (std::size_t k = 0; k < c.plugins; ++k) {
            CHECK(table.columns[k].header == header[1 + k]);
            ++total_cells;
        }
        REQUIRE(table.rows.size() == c.metric_rows);
        for (std::size_t r = 0; r < c.metric_rows; ++r) {
            const auto want = cells_of(lines[1 + r]);
            REQUIRE(want.size() == 1 + c.plugins);
            CHECK(table.rows[r].label == want[0]);
            for (std::size_t k = 0; k < c.plugins; ++k) {
                CAPTURE(table.rows[r].label);
                CAPTURE(table.columns[k].plugin);
                CHECK(table.rows[r].cells[k].text == want[1 + k]);
                ++total_cells;
            }
        }
        // Byte for byte: the whole file, including the "Failed runs:" text after table_main.
        CHECK(rp::render_markdown(table, spec) == expected);
    }
    // 6 x (plugins) header cells + rows x plugins value cells
    CHECK(total_cells == 22 + 4 * 28 + 4 * 54 + 4 * 54 + 2 * 28 + 4 * 28 + 4 * 54);
    MESSAGE("seed tables: " << total_cells << " cells compared");
}

TEST_CASE("report: a seed table spec reading the wrong run fails naming the row") {
    // table_main's short keys do not exist in the onebox per_rep.csv.
    const auto csv = kSeed / "results/onebox/per_rep.csv";
    const auto spec = rp::load_table_spec(kSeed / "specs/table_main.json");
    CHECK_THROWS_WITH(rp::render_markdown(rp::read_per_rep_csv(csv), spec, csv.string()),
                      doctest::Contains("table_main.json: $.rows[0].metric: metric 'disk_images' has no values in"));
}
