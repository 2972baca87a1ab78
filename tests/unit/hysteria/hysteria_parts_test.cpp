// The Hysteria 2 client's pure parts: share links, Salamander, the proxy
// stream framing. The protocol itself is tested against the real server
// library in tests/quic/check_hysteria_tunnel.sh.
#include "hysteria/hysteria_link.hpp"
#include "hysteria/hysteria_wire.hpp"
#include "hysteria/salamander.hpp"
#include "quic/quic_connection.hpp"
#include "quic/quic_error.hpp"
#include "quic/quic_tls.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

using namespace stand::hysteria;

namespace {

std::string hex(const std::uint8_t* p, std::size_t n) {
    static const char* d = "0123456789abcdef";
    std::string out;
    for (std::size_t i = 0; i < n; ++i) {
        out += d[p[i] >> 4];
        out += d[p[i] & 15];
    }
    return out;
}

// A QUIC varint at `pos`.
std::uint64_t varint_at(const std::string& s, std::size_t& pos) {
    const auto first = static_cast<std::uint8_t>(s[pos]);
    const std::size_t len = std::size_t{1} << (first >> 6);
    std::uint64_t v = first & 0x3f;
    for (std::size_t i = 1; i < len; ++i) v = (v << 8) | static_cast<std::uint8_t>(s[pos + i]);
    pos += len;
    return v;
}

}  // namespace

TEST_CASE("hysteria2 link: the official example") {
    auto link = parse_hysteria_link(
        "hysteria2://letmein@example.com:123,5000-6000/?insecure=1&obfs=salamander&obfs-password=gawrgura&"
        "pinSHA256=deadbeef&sni=real.example.com#cool-server");
    CHECK(link.auth == "letmein");
    CHECK(link.host == "example.com");
    CHECK(link.port == 123);
    CHECK(link.port_hopping);
    CHECK(link.insecure);
    CHECK(link.obfs == "salamander");
    CHECK(link.obfs_password == "gawrgura");
    CHECK(link.pin_sha256 == "deadbeef");
    CHECK(link.sni == "real.example.com");
    CHECK(link.name == "cool-server");
}

TEST_CASE("hysteria2 link: Remnawave's form, defaults, IPv6 and percent-encoding") {
    auto link = parse_hysteria_link(
        "hysteria2://1b2c%3Ad4@10.0.0.1:8443/?obfs=salamander&obfs-password=p%40ss%2Bword&sni=vpn.example&"
        "pinSHA256=AB%3ACD&fm=%7B%7D#User%20One");
    CHECK(link.auth == "1b2c:d4");
    CHECK(link.port == 8443);
    CHECK_FALSE(link.port_hopping);
    CHECK(link.obfs_password == "p@ss+word");
    CHECK(link.pin_sha256 == "abcd");
    CHECK(link.name == "User One");
    CHECK(link.ignored == std::vector<std::string>{"fm"});
    CHECK_FALSE(link.insecure);

    auto plain = parse_hysteria_link("hy2://secret@[::1]");
    CHECK(plain.host == "::1");
    CHECK(plain.port == 443);
    CHECK(parse_hysteria_link("hy2://h:1/?insecure=true").insecure);
    CHECK_FALSE(parse_hysteria_link("hy2://h:1/?insecure=F").insecure);
}

TEST_CASE("hysteria2 link: what is refused, and why") {
    auto refused = [](const std::string& text, const std::string& why) {
        try {
            parse_hysteria_link(text);
            FAIL("accepted: " << text);
        } catch (const LinkError& e) {
            CHECK_MESSAGE(std::string(e.what()).find(why) != std::string::npos, e.what());
        }
    };
    refused("vless://x@h:1", "not a hysteria2://");
    refused("hysteria2://a@:443", "no host");
    refused("hysteria2://a@h:0", "port '0'");
    refused("hysteria2://a@h:70000", "port '70000'");
    refused("hysteria2://a@h/?insecure=maybe", "not a boolean");
    refused("hysteria2://a@h/?obfs=gecko&obfs-password=abcd", "only salamander");
    refused("hysteria2://a@h/?obfs=salamander&obfs-password=abc", "at least 4 bytes");
    refused("hysteria2://a@h/?obfs-password=abcd", "without obfs=salamander");
    refused("hysteria2://a%zz@h", "two hex digits");
}

TEST_CASE("salamander: BLAKE2b-256 key (the native 32-byte digest) and the wire form") {
    Salamander s("hunter2");
    const std::array<std::uint8_t, 8> salt{0, 1, 2, 3, 4, 5, 6, 7};
    auto key = s.key_for(salt.data());
    CHECK(hex(key.data(), key.size()) == "1c04e8d479b60ed237df9c3d853aa211b323c48a133f8b6a51b358dabb747231");

    std::vector<std::uint8_t> packet(100);
    for (std::size_t i = 0; i < packet.size(); ++i) packet[i] = static_cast<std::uint8_t>(i * 7);
    std::vector<std::uint8_t> wire(packet.size() + 8), back(packet.size() + 8);
    const auto n = s.obfuscate(packet.data(), packet.size(), wire.data());
    REQUIRE(n == packet.size() + 8);
    // payload XOR key, the key repeated every 32 bytes
    const auto wire_key = s.key_for(wire.data());
    for (std::size_t i = 0; i < packet.size(); ++i) CHECK(wire[8 + i] == (packet[i] ^ wire_key[i % 32]));
    const auto m = s.deobfuscate(wire.data(), n, back.data());
    REQUIRE(m == packet.size());
    CHECK(std::equal(packet.begin(), packet.end(), back.begin()));
    CHECK(s.deobfuscate(wire.data(), 8, back.data()) == 0);  // salt only: dropped
    CHECK_THROWS_AS(Salamander("abc"), std::invalid_argument);
}

TEST_CASE("hysteria wire: TCPRequest layout and padding") {
    const std::string req = encode_tcp_request("example.com:80");
    std::size_t pos = 0;
    CHECK(static_cast<std::uint8_t>(req[0]) == 0x44);  // 0x401 as a QUIC varint
    CHECK(static_cast<std::uint8_t>(req[1]) == 0x01);
    CHECK(varint_at(req, pos) == 0x401);
    REQUIRE(varint_at(req, pos) == 14);
    CHECK(req.substr(pos, 14) == "example.com:80");
    pos += 14;
    const auto pad = varint_at(req, pos);
    CHECK(pad >= 64);
    CHECK(pad < 512);
    CHECK(pos + pad == req.size());
    CHECK(req.substr(pos).find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") ==
          std::string::npos);
    CHECK_THROWS_AS(encode_tcp_request(""), std::invalid_argument);

    std::string big;
    append_varint(big, 16383);
    append_varint(big, 16384);
    append_varint(big, 1ULL << 30);
    pos = 0;
    CHECK(varint_at(big, pos) == 16383);
    CHECK(varint_at(big, pos) == 16384);
    CHECK(varint_at(big, pos) == (1ULL << 30));
}

TEST_CASE("hysteria wire: TCPResponse fed byte by byte, then relayed data") {
    std::string resp;
    resp += '\0';
    append_varint(resp, 2);
    resp += "hi";
    append_varint(resp, 200);
    resp += std::string(200, 'p');
    resp += "DATA";
    TcpResponseReader reader;
    std::size_t used = 0;
    std::size_t i = 0;
    for (; i < resp.size(); ++i) {
        auto state = reader.feed(reinterpret_cast<const std::uint8_t*>(&resp[i]), 1, used);
        if (state != TcpResponseReader::State::need_more) break;
    }
    CHECK(reader.state() == TcpResponseReader::State::ok);
    CHECK(reader.message() == "hi");
    CHECK(resp.substr(i + used) == "DATA");

    std::string refused;
    refused += '\x01';
    append_varint(refused, 6);
    refused += "denied";
    append_varint(refused, 0);
    refused += "tail";
    TcpResponseReader r2;
    CHECK(r2.feed(reinterpret_cast<const std::uint8_t*>(refused.data()), refused.size(), used) ==
          TcpResponseReader::State::refused);
    CHECK(r2.message() == "denied");
    CHECK(refused.substr(used) == "tail");

    std::string huge;
    huge += '\0';
    append_varint(huge, 5000);
    TcpResponseReader r3;
    CHECK(r3.feed(reinterpret_cast<const std::uint8_t*>(huge.data()), huge.size(), used) ==
          TcpResponseReader::State::malformed);
}

TEST_CASE("quic: congestion control names and certificate pins") {
    using namespace stand::quic;
    CHECK(parse_congestion_control("bbr") == CongestionControl::bbr);
    CHECK(parse_congestion_control("cubic") == CongestionControl::cubic);
    CHECK_FALSE(parse_congestion_control("brutal"));
    CHECK(normalize_pin("AB:cd-EF") == "abcdef");
    QuicTlsOptions bad;
    bad.pin_sha256 = "1234";
    CHECK_THROWS_AS(QuicTlsContext{bad}, QuicSetupError);
}
