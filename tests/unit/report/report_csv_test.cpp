// report/: RFC 4180 CSV, the per-rep CSV schema and number formatting.
#include "report/csv.hpp"
#include "text/number_format.hpp"
#include "report/per_rep_csv.hpp"
#include "report/report_error.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace rp = stand::report;

namespace {

const std::filesystem::path kSeed = std::filesystem::path(STAND_TEST_SOURCE_DIR) / "tests/data/seed-harness";

std::string error_of(const std::string& text) {
    try {
        rp::parse_per_rep_csv(text, "in.csv");
    } catch (const rp::ReportError& e) {
        return e.what();
    }
    return "";
}

std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("report: CSV records with RFC 4180 quoting") {
    const auto recs = rp::parse_csv("a,\"b, c\",\"say \"\"hi\"\"\"\r\n\n\"two\nlines\",,x\n", "t.csv");
    REQUIRE(recs.size() == 2);
    CHECK(recs[0].line == 1);
    CHECK(recs[0].fields == std::vector<std::string>{"a", "b, c", "say \"hi\""});
    CHECK(recs[1].line == 3);  // line 2 is blank
    CHECK(recs[1].fields == std::vector<std::string>{"two\nlines", "", "x"});
    CHECK(rp::parse_csv("\xEF\xBB\xBFh,i", "bom.csv")[0].fields[0] == "h");

    CHECK(rp::csv_field("plain") == "plain");
    CHECK(rp::csv_field("A: private memory, anon+kernel (MiB)") == "\"A: private memory, anon+kernel (MiB)\"");
    CHECK(rp::csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(rp::csv_field("a\nb") == "\"a\nb\"");

    auto error = [](const std::string& text) {
        try {
            rp::parse_csv(text, "t.csv");
        } catch (const rp::ReportError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    CHECK(error("a,b\nc,\"open\nstill open") == "t.csv:2: unterminated quoted field");
    CHECK(error("a\nb\"c\n").find("t.csv:2: quote inside an unquoted field") == 0);
    CHECK(error("a\n\"x\"y,z\n").find("t.csv:2: unexpected text after a closing quote") == 0);
    CHECK(error("a\rb\n").find("t.csv:1: carriage return") == 0);
}

TEST_CASE("report: per-rep CSV rows, both header spellings") {
    const auto rows = rp::parse_per_rep_csv(
        "panel,rep,metric,value\n3xui,1,\"A: private memory, anon+kernel (MiB)\",79.035546875\nmistgate,2,procs,1\n",
        "in.csv");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0] == rp::PerRepRow{"3xui", 1, "A: private memory, anon+kernel (MiB)", 79.035546875});
    CHECK(rows[1] == rp::PerRepRow{"mistgate", 2, "procs", 1.0});
    CHECK(rp::parse_per_rep_csv("plugin,rep,metric,value\r\nx,0,m,-1.5e-05\r\n", "in.csv")[0].value == -1.5e-05);
}

TEST_CASE("report: per-rep CSV errors name the file and line") {
    CHECK(error_of("") == "in.csv:1: empty file: expected the header plugin,rep,metric,value");
    CHECK(error_of("plugin,run,metric,value\n").find("in.csv:1: expected the header") == 0);
    CHECK(error_of("plugin,rep,metric,value\nx,1,m\n") ==
          "in.csv:2: expected 4 fields (plugin,rep,metric,value), got 3");
    CHECK(error_of("plugin,rep,metric,value\nx,1,m,1\nx,one,m,2\n") == "in.csv:3: rep 'one' is not an integer >= 0");
    CHECK(error_of("plugin,rep,metric,value\nx,1,m,12abc\n") ==
          "in.csv:2: value '12abc' of metric 'm' is not a finite number");
    CHECK(error_of("plugin,rep,metric,value\nx,1,m,nan\n").find("in.csv:2: value 'nan'") == 0);
    CHECK(error_of("plugin,rep,metric,value\nx,1,m,\n").find("in.csv:2: value ''") == 0);
    CHECK(error_of("plugin,rep,metric,value\n,1,m,1\n") == "in.csv:2: empty plugin");
    CHECK(error_of("plugin,rep,metric,value\nx,1,\"a,b\",1\n\nx,1,\"a,b\",2\n") ==
          "in.csv:4: a second value for plugin 'x', rep 1, metric 'a,b' (first on line 2)");
    try {
        rp::read_per_rep_csv("/nonexistent/per_rep.csv");
        FAIL("no error");
    } catch (const rp::ReportError& e) {
        CHECK(std::string(e.what()) == "cannot read /nonexistent/per_rep.csv: No such file or directory");
    }
}

TEST_CASE("report: shortest number text is Python's repr") {
    // repr() of these floats in Python 3
    CHECK(stand::text::format_shortest(462.0) == "462.0");
    CHECK(stand::text::format_shortest(0.1) == "0.1");
    CHECK(stand::text::format_shortest(53.68055555555556) == "53.68055555555556");
    CHECK(stand::text::format_shortest(61.943968) == "61.943968");
    CHECK(stand::text::format_shortest(1e16) == "1e+16");
    CHECK(stand::text::format_shortest(1234567890123456.0) == "1234567890123456.0");
    CHECK(stand::text::format_shortest(0.0001) == "0.0001");
    CHECK(stand::text::format_shortest(1.5e-05) == "1.5e-05");
    CHECK(stand::text::format_shortest(-2.5e-300) == "-2.5e-300");
    CHECK(stand::text::format_shortest(-0.0) == "-0.0");
    CHECK(stand::text::format_shortest(0.0) == "0.0");
}

TEST_CASE("report: printf formats are checked and applied like Python's %") {
    // '%.0f' % 2.5 == '2', '%.0f' % 3.5 == '4' (round half to even on the binary value);
    // '%.2f' % 2.675 == '2.67' (2.675 is 2.67499999... in binary)
    CHECK(stand::text::PrintfFormat("%.0f").apply(2.5) == "2");
    CHECK(stand::text::PrintfFormat("%.0f").apply(3.5) == "4");
    CHECK(stand::text::PrintfFormat("%.2f").apply(2.675) == "2.67");
    CHECK(stand::text::PrintfFormat("%.1f%%").apply(28.571) == "28.6%");
    CHECK(stand::text::PrintfFormat("~%+8.3e").apply(1234.5) == "~+1.234e+03");
    CHECK_THROWS_AS(stand::text::PrintfFormat("%d"), std::invalid_argument);
    CHECK_THROWS_AS(stand::text::PrintfFormat("%s"), std::invalid_argument);
    CHECK_THROWS_AS(stand::text::PrintfFormat("%.1f %.1f"), std::invalid_argument);
    CHECK_THROWS_AS(stand::text::PrintfFormat("no conversion"), std::invalid_argument);
    CHECK_THROWS_AS(stand::text::PrintfFormat("%.100f"), std::invalid_argument);
    CHECK_THROWS_AS(stand::text::PrintfFormat("%lf"), std::invalid_argument);
}

TEST_CASE("report: the seed per_rep.csv files read and write back line for line") {
    for (const char* dir : {"main", "main_unpinned", "onebox", "box1g", "mgvariants", "coldpass", "box_pin2"}) {
        CAPTURE(dir);
        const auto file = kSeed / "results" / dir / "per_rep.csv";
        const auto rows = rp::read_per_rep_csv(file);
        REQUIRE_FALSE(rows.empty());
        std::ostringstream out;
        rp::write_per_rep_csv(out, rows);
        // Reading the output back gives the same rows.
        CHECK(rp::parse_per_rep_csv(out.str(), "written") == rows);
        // Byte for byte, the lines equal the seed's (written by Python's csv module),
        // except the header name and the values Python wrote as ints ("0" for 0.0).
        std::istringstream original(slurp(file)), written(out.str());
        std::string a, b;
        std::getline(original, a);
        std::getline(written, b);
        CHECK(a == "panel,rep,metric,value");
        CHECK(b == "plugin,rep,metric,value");
        std::size_t lines = 0, int_values = 0;
        while (std::getline(original, a)) {
            REQUIRE(std::getline(written, b));
            ++lines;
            if (a == b) continue;
            CAPTURE(a);
            CHECK(b == a + ".0");
            CHECK(a.substr(a.rfind(',') + 1).find_first_not_of("0123456789") == std::string::npos);
            ++int_values;
        }
        CHECK_FALSE(std::getline(written, b));
        CHECK(lines == rows.size());
        CHECK(int_values < lines);
    }
}
