// The HTTP/1.1 response parser of `stand load` (load/response_parser.hpp),
// chunked decoding included, fed as a connection feeds it: in pieces, the
// unconsumed tail passed again with the next piece, several responses one
// after another (keep-alive, pipelining), then the peer's close.
// Input: byte 0 = flags (bit 0: HEAD request), byte 1 = piece size - 1,
// the rest = the bytes the peer sends.
#include "fuzz_input.hpp"
#include "load/response_parser.hpp"

#include <algorithm>
#include <cstring>
#include <string>

using stand::fuzz::check;
using stand::load::ResponseParser;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stand::fuzz::FuzzInput in(data, size);
    const bool head = (in.byte() & 1) != 0;
    const std::size_t piece = std::size_t{in.byte()} + 1;
    const std::string_view wire = in.rest();

    ResponseParser parser;
    parser.reset(head);
    std::string pending;  // received, not yet consumed
    std::size_t sent = 0;
    for (int responses = 0; responses < 64;) {
        if (sent < wire.size()) {
            const std::size_t n = std::min(piece, wire.size() - sent);
            pending.append(wire.substr(sent, n));
            sent += n;
        }
        std::size_t consumed = 0;
        const auto result = parser.feed(pending.data(), pending.size(), consumed);
        check(consumed <= pending.size(), "consumed at most what was given");
        if (result == ResponseParser::Result::need_more) {
            // The tail kept for the next call is an incomplete line, never a whole one.
            check(std::memchr(pending.data() + consumed, '\n', pending.size() - consumed) == nullptr,
                  "on need_more the unconsumed rest holds no complete line");
            pending.erase(0, consumed);
            if (sent == wire.size()) {
                if (parser.eof() == ResponseParser::Result::error)
                    check(parser.error() != nullptr, "an error has a reason");
                break;
            }
            continue;
        }
        pending.erase(0, consumed);
        if (result == ResponseParser::Result::error) {
            check(parser.error() != nullptr && *parser.error() != '\0', "an error has a reason");
            break;
        }
        check(parser.done() && parser.status() >= 100 && parser.status() <= 999, "a done response has a status");
        if (head) check(parser.body_bytes() == 0, "a HEAD answer has no body");
        ++responses;
        if (!parser.keep_alive()) break;
        parser.reset(head);
    }
    return 0;
}
