// The Hysteria 2 links the panels whose core is Xray write (Remnawave,
// PasarGuard; as their sources build them) read by stand's Hysteria 2 client.
// The panel kit's side: sdk/kits/panel/tests/panel_hysteria2_test.cpp.
#include "hysteria/hysteria_link.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

TEST_CASE("panel hysteria2: the links Remnawave and PasarGuard write are read by stand's client") {
    const std::string pin = "fd89762306a0cb8ef90ac4c241adcf7b57ce99b63831b9b99a2d753a1b4856e4";
    // Remnawave 3.3.2, xray.generator.service.ts buildHysteria2Link: auth = vlessUuid,
    // "/?", sni and pinSHA256 from the host, fm = the finalmask as JSON
    auto remna = stand::hysteria::parse_hysteria_link(
        "hysteria2://0b6e7f4c-2d3a-4c1e-9f00-1a2b3c4d5e6f@node1.bench.test:4443/?sni=localhost&pinSHA256=" + pin +
        "&fm=%7B%22quicParams%22%3A%7B%22congestion%22%3A%22bbr%22%7D%7D#stand-hysteria2");
    CHECK(remna.auth == "0b6e7f4c-2d3a-4c1e-9f00-1a2b3c4d5e6f");
    CHECK(remna.host == "node1.bench.test");
    CHECK(remna.port == 4443);
    CHECK(remna.sni == "localhost");
    CHECK(remna.pin_sha256 == pin);
    CHECK_FALSE(remna.insecure);
    CHECK(remna.obfs.empty());
    CHECK(remna.ignored == std::vector<std::string>{"fm"});
    // PasarGuard v5.2.1, app/subscription/links.py _build_hysteria (the link the real
    // panel served for the adapter's core config and host): no "/", pcs beside
    // pinSHA256, empty values dropped
    auto pasar = stand::hysteria::parse_hysteria_link(
        "hysteria2://8BZKB3Nvlu3VKv8y2wZT6APHuOBKWYpZ@node1.bench.test:4443?fm=%7B%22quicParams%22%3A%7B%22congestion%22%3A"
        "%22bbr%22%7D%7D&sni=localhost&pcs=" + pin + "&pinSHA256=" + pin + "#stand-hysteria2");
    CHECK(pasar.auth == "8BZKB3Nvlu3VKv8y2wZT6APHuOBKWYpZ");
    CHECK(pasar.sni == "localhost");
    CHECK(pasar.pin_sha256 == pin);
    CHECK_FALSE(pasar.insecure);
    CHECK(pasar.ignored == std::vector<std::string>{"fm", "pcs"});
}
