// A histogram in HdrHistogram's own transport form: the V2 encoding,
// compressed, base64 ("HISTFAAA..."), as the HdrHistogram libraries (Java's
// encodeIntoCompressedByteBuffer, the Python package's encode()) write and
// decode it, and as interval logs carry it (load/hdr_interval_log.hpp).
//
// The uncompressed form: a 40-byte big-endian header (cookie 0x1c849313 = the
// V2 base 0x1c849303 with the word-size nibble 1, the counts' byte length,
// normalizing index offset 0, significant digits, lowest discernible value,
// highest trackable value, the integer-to-double ratio 1.0 as an IEEE double),
// then the counts array from index 0 up to the slot of the max as ZigZag
// LEB128 (at most 9 bytes, the 9th holding 8 bits), a run of N > 1 zeros as
// -N. The compressed form: cookie 0x1c849314, the zlib stream's length, the
// zlib stream of the uncompressed form.
//
// HdrHistogram's counts array is stand's slot array (the same layout for the
// same lowest, highest and digits), so a decoder sees exactly stand's counts.
#pragma once

#include "load/hdr_histogram.hpp"

#include <string>

namespace stand::load {

// The uncompressed V2 form (bytes), of a histogram or of its parts.
std::string hdr_v2_payload(const HdrHistogram& h);
std::string hdr_v2_payload(const HdrHistogram::Parts& parts);
// The compressed V2 form in base64: the text after a log line's last comma.
// Throws std::runtime_error when zlib fails.
std::string hdr_v2_compressed_base64(const HdrHistogram& h);
std::string hdr_v2_compressed_base64(const HdrHistogram::Parts& parts);

}  // namespace stand::load
