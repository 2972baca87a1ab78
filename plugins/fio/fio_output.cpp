// fio probe: finding and reading fio's json+ document among the other lines
// fio prints, and turning one side of it into the probe metrics.
#include "fio_output.hpp"

#include <boost/json.hpp>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <optional>

namespace stand_fio {
namespace {

namespace json = boost::json;

[[noreturn]] void bad_field(const std::string& path, const char* expected) {
    throw FioOutputError("fio's JSON: " + path + ": expected " + expected);
}

const json::value& field(const json::object& o, const std::string& parent, const char* key) {
    const json::value* v = o.if_contains(key);
    if (v == nullptr) throw FioOutputError("fio's JSON: " + parent + "." + key + " is missing");
    return *v;
}

const json::object& object_at(const json::object& o, const std::string& parent, const char* key) {
    const json::value& v = field(o, parent, key);
    if (!v.is_object()) bad_field(parent + "." + key, "an object");
    return v.get_object();
}

std::uint64_t count_at(const json::object& o, const std::string& parent, const char* key) {
    const json::value& v = field(o, parent, key);
    if (v.is_uint64()) return v.get_uint64();
    if (v.is_int64() && v.get_int64() >= 0) return static_cast<std::uint64_t>(v.get_int64());
    bad_field(parent + "." + key, "a non-negative integer");
}

double number_at(const json::object& o, const std::string& parent, const char* key) {
    const json::value& v = field(o, parent, key);
    if (!v.is_number()) bad_field(parent + "." + key, "a number");
    return v.to_number<double>();
}

// The side of a job; json+ adds clat_ns.bins when the side did any I/O.
FioSide side_of(const json::object& job, const char* name) {
    const std::string path = std::string("jobs[0].") + name;
    const json::object& s = object_at(job, "jobs[0]", name);
    FioSide side;
    side.io_bytes = count_at(s, path, "io_bytes");
    side.total_ios = count_at(s, path, "total_ios");
    side.runtime_ms = count_at(s, path, "runtime");
    side.lat_mean_ns = number_at(object_at(s, path, "lat_ns"), path + ".lat_ns", "mean");
    const json::object& clat = object_at(s, path, "clat_ns");
    if (const json::value* bins = clat.if_contains("bins")) {
        if (!bins->is_object()) bad_field(path + ".clat_ns.bins", "an object");
        for (const auto& [key, count] : bins->get_object()) {
            std::uint64_t ns = 0;
            const auto [end, ec] = std::from_chars(key.data(), key.data() + key.size(), ns);
            if (ec != std::errc() || end != key.data() + key.size())
                bad_field(path + ".clat_ns.bins", "nanosecond values as keys");
            side.clat_bins.emplace_back(ns, count_at(bins->get_object(), path + ".clat_ns.bins", std::string(key).c_str()));
        }
        std::sort(side.clat_bins.begin(), side.clat_bins.end());
    }
    return side;
}

// The JSON object starting at `start` and where it ends, if one parses there.
std::optional<std::pair<json::object, std::size_t>> object_at_offset(std::string_view text, std::size_t start) {
    json::stream_parser parser;
    boost::system::error_code ec;
    // write_some stops after the first complete value: what follows is not ours.
    const std::size_t used = parser.write_some(text.data() + start, text.size() - start, ec);
    if (ec || !parser.done()) return std::nullopt;
    json::value v = parser.release();
    if (!v.is_object()) return std::nullopt;
    return std::make_pair(std::move(v.get_object()), start + used);
}

void add_lines(std::string_view text, std::vector<std::string>& out) {
    while (!text.empty()) {
        const std::size_t nl = text.find('\n');
        std::string_view line = text.substr(0, nl);
        while (!line.empty() && (line.back() == '\r' || line.back() == ' ' || line.back() == '\t')) line.remove_suffix(1);
        if (line.find_first_not_of(" \t") != std::string_view::npos) out.emplace_back(line);
        if (nl == std::string_view::npos) break;
        text.remove_prefix(nl + 1);
    }
}

}  // namespace

FioReport parse_fio_output(std::string_view output) {
    std::optional<std::pair<json::object, std::size_t>> found;
    std::size_t begin = 0;
    for (std::size_t at = 0; at < output.size();) {
        if (output[at] == '{') {
            found = object_at_offset(output, at);
            if (found && found->first.contains("jobs")) {
                begin = at;
                break;
            }
            found.reset();
        }
        const std::size_t nl = output.find('\n', at);
        if (nl == std::string_view::npos) break;
        at = nl + 1;
    }
    if (!found) throw FioOutputError("no complete JSON object in fio's output (" + std::to_string(output.size()) + " bytes)");

    const json::object& doc = found->first;
    FioReport report;
    add_lines(output.substr(0, begin), report.other_lines);
    add_lines(output.substr(found->second), report.other_lines);
    if (const json::value* v = doc.if_contains("fio version"); v && v->is_string()) report.version = v->get_string();
    const json::value& jobs = field(doc, "", "jobs");
    if (!jobs.is_array() || jobs.get_array().empty()) bad_field("jobs", "a non-empty array");
    if (!jobs.get_array()[0].is_object()) bad_field("jobs[0]", "an object");
    const json::object& job = jobs.get_array()[0].get_object();
    if (const json::value* v = job.if_contains("jobname"); v && v->is_string()) report.job_name = v->get_string();
    const json::value& error = field(job, "jobs[0]", "error");
    if (!error.is_int64() && !error.is_uint64()) bad_field("jobs[0].error", "an integer");
    report.error = error.to_number<std::int64_t>();
    if (report.error != 0) return report;  // a failed job may lack the rest
    report.usr_cpu_pct = number_at(job, "jobs[0]", "usr_cpu");
    report.sys_cpu_pct = number_at(job, "jobs[0]", "sys_cpu");
    report.job_runtime_ms = count_at(job, "jobs[0]", "job_runtime");
    report.read = side_of(job, "read");
    report.write = side_of(job, "write");
    return report;
}

FioReport read_fio_run(std::string_view output, int exit_code) {
    const std::string exited = "fio exited with code " + std::to_string(exit_code);
    FioReport report;
    try {
        report = parse_fio_output(output);
    } catch (const FioOutputError& e) {
        std::vector<std::string> lines;
        add_lines(output, lines);
        throw FioOutputError(std::string(e.what()) + "; " + exited +
                             (lines.empty() ? "; it printed nothing" : "; it printed: " + first_lines(lines, 5)));
    }
    if (report.error != 0)
        throw FioOutputError("jobs[0].error is " + std::to_string(report.error) + " (" +
                             std::strerror(static_cast<int>(report.error)) + "); " + exited +
                             (report.other_lines.empty() ? "" : "; it printed: " + first_lines(report.other_lines, 5)));
    return report;
}

FioMetrics metrics_of(const FioReport& report, bool write) {
    const FioSide& side = write ? report.write : report.read;
    const char* name = write ? "write" : "read";
    if (side.io_bytes == 0 || side.total_ios == 0 || side.runtime_ms == 0)
        throw FioOutputError(std::string("fio reported no ") + name + " I/O (jobs[0]." + name + ".io_bytes " +
                             std::to_string(side.io_bytes) + ", runtime " + std::to_string(side.runtime_ms) + " ms)");
    const double seconds = static_cast<double>(side.runtime_ms) / 1000.0;
    const double cpu_pct = report.usr_cpu_pct + report.sys_cpu_pct;
    const double cpu_s = cpu_pct / 100.0 * static_cast<double>(report.job_runtime_ms) / 1000.0;
    FioMetrics m = stand_probe_kit::disk_metrics(side.io_bytes, side.total_ios, seconds, side.lat_mean_ns, cpu_s);
    m.cpu_pct = cpu_pct;
    return m;
}

std::string first_lines(const std::vector<std::string>& lines, std::size_t n) {
    std::string out;
    for (std::size_t i = 0; i < lines.size() && i < n; ++i) {
        std::string line = lines[i].size() > 200 ? lines[i].substr(0, 200) + "..." : lines[i];
        out += (i ? " | " : "") + line;
    }
    if (lines.size() > n) out += " | (" + std::to_string(lines.size() - n) + " more lines)";
    return out;
}

}  // namespace stand_fio
