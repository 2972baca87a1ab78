// Hysteria 2's framing on a proxy stream (hysteria/hysteria_wire.hpp): the
// TCPResponse a server sends, fed in pieces as QUIC delivers it; and a
// response encoded with append_varint() from parts of the input reads back
// as what was encoded.
// Input: byte 0 = piece size - 1, the rest = the bytes the server sends.
#include "fuzz_input.hpp"
#include "hysteria/hysteria_wire.hpp"

#include <algorithm>
#include <string>

using stand::fuzz::check;
using stand::hysteria::TcpResponseReader;

namespace {

// Feeds `wire` in pieces; the state at the end, and how many bytes it used.
TcpResponseReader::State read_all(TcpResponseReader& reader, std::string_view wire, std::size_t piece,
                                  std::size_t& used_total) {
    used_total = 0;
    auto state = TcpResponseReader::State::need_more;
    for (std::size_t at = 0; at < wire.size() && state == TcpResponseReader::State::need_more;) {
        const std::size_t n = std::min(piece, wire.size() - at);
        std::size_t used = 0;
        state = reader.feed(reinterpret_cast<const std::uint8_t*>(wire.data() + at), n, used);
        check(used <= n, "used at most what was given");
        used_total += used;
        at += n;
    }
    return state;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    stand::fuzz::FuzzInput in(data, size);
    const std::size_t piece = std::size_t{in.byte()} + 1;
    const std::string_view wire = in.rest();

    TcpResponseReader reader;
    std::size_t used = 0;
    const auto state = read_all(reader, wire, piece, used);
    if (state == TcpResponseReader::State::ok || state == TcpResponseReader::State::refused) {
        check(used <= wire.size(), "a complete response is within what was sent");
        check(reader.message().size() <= stand::hysteria::kMaxMessageLength, "the message is bounded");
    }

    // status, message and padding from the input, framed as a server frames them.
    const std::uint8_t status = wire.empty() ? 0 : static_cast<std::uint8_t>(wire[0]);
    const std::string message(wire.substr(std::min<std::size_t>(1, wire.size()),
                                          std::min(wire.size() / 2, stand::hysteria::kMaxMessageLength)));
    const std::string padding(wire.size() % 97, 'p');
    std::string framed(1, static_cast<char>(status));
    stand::hysteria::append_varint(framed, message.size());
    framed += message;
    stand::hysteria::append_varint(framed, padding.size());
    framed += padding;
    const std::string relayed = "relayed data";
    framed += relayed;
    TcpResponseReader again;
    const auto framed_state = read_all(again, framed, piece, used);
    check(framed_state == (status == 0 ? TcpResponseReader::State::ok : TcpResponseReader::State::refused),
          "a well-framed response is read");
    check(again.message() == message, "the message reads back");
    check(used == framed.size() - relayed.size(), "the bytes after the response are left to relay");
    return 0;
}
