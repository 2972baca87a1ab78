#include "sevenzip_output.hpp"

#include <cctype>
#include <cmath>
#include <charconv>
#include <stdexcept>
#include <vector>

namespace stand_sysprobe {
namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        auto end = text.find('\n');
        std::string_view line = text.substr(0, end);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == std::string_view::npos) break;
        text.remove_prefix(end + 1);
    }
    return lines;
}

std::vector<std::string_view> words_of(std::string_view text) {
    std::vector<std::string_view> words;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        std::size_t start = i;
        while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
        if (i > start) words.push_back(text.substr(start, i - start));
    }
    return words;
}

std::optional<double> number_of(std::string_view word) {
    double v = 0;
    auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
    if (ec != std::errc() || end != word.data() + word.size()) return std::nullopt;
    return v;
}

std::vector<double> numbers_of(std::string_view text) {
    std::vector<double> out;
    for (auto w : words_of(text))
        if (auto v = number_of(w)) out.push_back(*v);
    return out;
}

bool is_version(std::string_view w) {
    auto dot = w.find('.');
    if (dot == 0 || dot == std::string_view::npos || dot + 1 == w.size()) return false;
    for (std::size_t i = 0; i < w.size(); ++i)
        if (i != dot && !std::isdigit(static_cast<unsigned char>(w[i]))) return false;
    return true;
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

}  // namespace

std::optional<std::string> sevenzip_version_of(std::string_view banner) {
    banner = trimmed(banner);
    if (!banner.starts_with("7-Zip")) return std::nullopt;
    for (auto w : words_of(banner.substr(0, banner.find(':'))))
        if (is_version(w)) return std::string(w);
    return std::nullopt;
}

SevenZipBench parse_sevenzip_bench(std::string_view output) {
    SevenZipBench r;
    std::optional<std::string_view> tot, avr;
    for (auto raw : lines_of(output)) {
        std::string_view line = trimmed(raw);
        if (r.banner.empty() && line.starts_with("7-Zip")) {
            r.banner = std::string(line);
            r.version = sevenzip_version_of(line).value_or("");
        } else if (line.starts_with("p7zip Version ")) {
            auto w = words_of(line);
            if (w.size() >= 3 && is_version(w[2])) r.p7zip_version = std::string(w[2]);
        } else if (auto at = line.find("# Benchmark threads:"); at != std::string_view::npos) {
            auto n = numbers_of(line.substr(at + 20));
            // A thread count; anything else (1e60, nan) leaves "not printed" rather than an int overflow.
            if (!n.empty() && n.front() >= 1 && n.front() <= 65536 && n.front() == std::floor(n.front()))
                r.benchmark_threads = static_cast<int>(n.front());
        } else if (line.starts_with("Tot:")) {
            tot = line.substr(4);  // the last one wins: `7z b` may print several passes
        } else if (line.starts_with("Avr:")) {
            avr = line.substr(4);
        }
    }
    if (!tot) throw std::runtime_error("no \"Tot:\" line in the 7z b output");
    auto t = numbers_of(tot->substr(0, tot->find('|')));
    if (t.size() < 3)
        throw std::runtime_error("the \"Tot:\" line has " + std::to_string(t.size()) + " numbers, expected usage, R/U and rating: \"Tot:" +
                                 std::string(*tot) + "\"");
    r.usage_pct = t[t.size() - 3];
    r.ru_mips = t[t.size() - 2];
    r.total_mips = t.back();
    if (avr) {
        auto bar = avr->find('|');
        auto c = numbers_of(avr->substr(0, bar));
        auto d = bar == std::string_view::npos ? std::vector<double>{} : numbers_of(avr->substr(bar + 1));
        if (!c.empty()) r.compress_mips = c.back();
        if (!d.empty()) r.decompress_mips = d.back();
    }
    return r;
}

}  // namespace stand_sysprobe
