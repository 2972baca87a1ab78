#include "load/hdr_encoding.hpp"

#include "host/http/body_codec.hpp"

#include <zlib.h>

#include <bit>
#include <cstdint>
#include <stdexcept>

namespace stand::load {
namespace {

constexpr std::uint32_t kV2Cookie = 0x1c849303 | 0x10;
constexpr std::uint32_t kV2CompressedCookie = 0x1c849304 | 0x10;

void put_be(std::string& out, std::uint64_t value, int bytes) {
    for (int shift = 8 * (bytes - 1); shift >= 0; shift -= 8) out.push_back(static_cast<char>((value >> shift) & 0xff));
}

// LEB128 of the ZigZag form; the 9th byte, if reached, carries 8 bits.
void put_zigzag(std::string& out, std::int64_t value) {
    std::uint64_t v = (static_cast<std::uint64_t>(value) << 1) ^ static_cast<std::uint64_t>(value >> 63);
    for (int i = 0; i < 8 && v >= 0x80; ++i) {
        out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<char>(v));
}

// The non-empty slots as counts with the gaps as zero runs.
std::string encoded_counts(const HdrHistogram::Parts& parts) {
    std::string out;
    std::size_t next = 0;  // the first index not yet written
    for (const auto& [index, count] : parts.slots) {
        const std::size_t zeros = index - next;
        if (zeros == 1) put_zigzag(out, 0);
        else if (zeros > 1) put_zigzag(out, -static_cast<std::int64_t>(zeros));
        if (count > static_cast<std::uint64_t>(INT64_MAX)) throw std::runtime_error("HdrHistogram V2: a count over 2^63");
        put_zigzag(out, static_cast<std::int64_t>(count));
        next = index + 1;
    }
    if (parts.slots.empty()) put_zigzag(out, 0);  // as HdrHistogram writes an empty one: one count, slot 0's
    return out;
}

}  // namespace

std::string hdr_v2_payload(const HdrHistogram& h) { return hdr_v2_payload(h.parts()); }

std::string hdr_v2_payload(const HdrHistogram::Parts& parts) {
    const std::string counts = encoded_counts(parts);
    std::string out;
    out.reserve(40 + counts.size());
    put_be(out, kV2Cookie, 4);
    put_be(out, counts.size(), 4);
    put_be(out, 0, 4);  // normalizing index offset
    put_be(out, static_cast<std::uint64_t>(parts.digits), 4);
    put_be(out, parts.lowest, 8);
    put_be(out, parts.highest, 8);
    put_be(out, std::bit_cast<std::uint64_t>(1.0), 8);  // integer-to-double ratio
    return out + counts;
}

std::string hdr_v2_compressed_base64(const HdrHistogram& h) { return hdr_v2_compressed_base64(h.parts()); }

std::string hdr_v2_compressed_base64(const HdrHistogram::Parts& parts) {
    const std::string payload = hdr_v2_payload(parts);
    uLongf size = compressBound(static_cast<uLong>(payload.size()));
    std::string deflated(size, '\0');
    const int rc = compress2(reinterpret_cast<Bytef*>(deflated.data()), &size,
                             reinterpret_cast<const Bytef*>(payload.data()), static_cast<uLong>(payload.size()),
                             Z_BEST_COMPRESSION);  // what HistogramLogWriter asks of its Deflater
    if (rc != Z_OK) throw std::runtime_error("HdrHistogram V2: zlib compress2 failed (" + std::to_string(rc) + ")");
    deflated.resize(size);
    std::string framed;
    put_be(framed, kV2CompressedCookie, 4);
    put_be(framed, deflated.size(), 4);
    return host::http::base64_encode(framed + deflated);
}

}  // namespace stand::load
