// Reading what `7z b` prints (p7zip 16.02 and 7-Zip 21+ share the layout):
//   7-Zip [64] 16.02 : Copyright (c) 1999-2016 Igor Pavlov : 2016-05-21
//   RAM usage:    441 MB,  # Benchmark threads:      2
//   Avr:             166    644   1068  |              197    788   1551
//   Tot:             181    716   1309
// The last number of "Tot:" is the total rating in MIPS; the halves of
// "Avr:" end with the compression and decompression ratings (7-Zip 21+
// puts a speed column first, which the last-number rule skips).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace stand_sysprobe {

struct SevenZipBench {
    double total_mips = 0;           // "Tot:" rating
    double usage_pct = 0;            // "Tot:" usage
    double ru_mips = 0;              // "Tot:" rating per 100 % of one thread
    double compress_mips = 0;        // "Avr:" rating, compressing
    double decompress_mips = 0;      // "Avr:" rating, decompressing
    int benchmark_threads = 0;       // 0 when not printed
    std::string version;             // "16.02", "23.01"; empty when not printed
    std::string banner;              // the whole "7-Zip ..." line
    std::string p7zip_version;       // "16.02" when a "p7zip Version" line is there
};

// Throws std::runtime_error naming what is missing when there is no "Tot:"
// line with three numbers.
SevenZipBench parse_sevenzip_bench(std::string_view output);

// The version in a "7-Zip ..." banner line, if any.
std::optional<std::string> sevenzip_version_of(std::string_view banner);

}  // namespace stand_sysprobe
