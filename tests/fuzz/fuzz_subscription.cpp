// A subscription as a panel serves it (target/subscription_links.hpp):
// base64 or plain text, one share link a line among comment and blank lines,
// the links of the schemes stand checks kept and the others counted by
// scheme; each kept link then read as the compat checks read it (compat/share_link.hpp) and, for hysteria2:// and
// hy2://, as the Hysteria client reads it (hysteria/hysteria_link.hpp).
// A panel under test is not trusted: nothing may escape but the refusals
// each interface names.
#include "compat/share_link.hpp"
#include "fuzz_input.hpp"
#include "hysteria/hysteria_link.hpp"
#include "target/subscription_links.hpp"

#include <algorithm>
#include <cstdio>
#include <exception>

using stand::fuzz::check;

namespace {

void read_link(const std::string& text) {
    const auto parsed = stand::compat::parse_share_link(text);
    check(parsed.link.has_value() != !parsed.problem.empty(), "a link parses, or says why not");
    if (parsed.link) {
        (void)stand::compat::endpoint_problem(*parsed.link);
        for (const auto& credential : parsed.link->credentials)
            check(stand::compat::carries_credential(*parsed.link, credential), "a link carries its own credentials");
    }
    if (text.starts_with("hysteria2://") || text.starts_with("hy2://")) {
        try {
            const auto link = stand::hysteria::parse_hysteria_link(text);
            check(!link.host.empty(), "a Hysteria link has a host");
        } catch (const stand::hysteria::LinkError& e) {
            check(*e.what() != '\0', "a refusal names the part");
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    try {
        const auto links = stand::target::parse_subscription_body(body);
        check(!links.links.empty() || !links.problem.empty(), "a subscription without a checked link is a problem");
        const auto schemes = stand::target::checked_schemes();
        for (const auto& link : links.links) {
            const auto scheme = link.substr(0, link.find("://"));
            check(std::find(schemes.begin(), schemes.end(), scheme) != schemes.end(), "a kept link has a checked scheme");
            read_link(link);
        }
        for (const auto& [scheme, n] : links.unchecked)
            check(n > 0 && std::find(schemes.begin(), schemes.end(), scheme) == schemes.end(),
                  "an unchecked scheme is counted and is not a checked one");
        check(links.unchecked.empty() || !stand::target::unchecked_text(links.unchecked).empty(),
              "unchecked links are named");
        // A single link as a user gives it (stand tunnel's LINK).
        if (links.links.empty()) read_link(std::string(body));
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz: escaped: %s\n", e.what());
        check(false, "a subscription is read without exceptions");
    }
    return 0;
}
