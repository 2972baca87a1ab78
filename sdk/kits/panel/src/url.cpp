#include <stand/kits/panel/url.hpp>

#include <stand/cpp/error.hpp>

namespace stand_panel_kit {

namespace {

std::size_t authority_end(const std::string& url) {
    auto scheme = url.find("://");
    if (scheme == std::string::npos) throw stand::cpp::Error(STAND_E_INVALID_ARGUMENT, "not an absolute URL: " + url);
    auto end = url.find_first_of("/?#", scheme + 3);
    return end == std::string::npos ? url.size() : end;
}

}  // namespace

std::string origin_of(const std::string& url) { return url.substr(0, authority_end(url)); }

std::string path_of(const std::string& url) {
    auto end = authority_end(url);
    std::string path = url.substr(end);
    if (path.empty() || path[0] != '/') path = "/" + path;
    return path;
}

std::string resolve_url(const std::string& base, const std::string& ref) {
    if (ref.find("://") != std::string::npos) return ref;
    if (ref.rfind("//", 0) == 0) return base.substr(0, base.find("://") + 1) + ref;
    if (!ref.empty() && ref[0] == '/') return origin_of(base) + ref;
    std::string path = path_of(base);
    path = path.substr(0, path.find_first_of("?#"));
    return origin_of(base) + path.substr(0, path.rfind('/') + 1) + ref;
}

}  // namespace stand_panel_kit
