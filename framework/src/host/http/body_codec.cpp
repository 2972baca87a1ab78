#include "host/http/body_codec.hpp"

#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>

#include <openssl/evp.h>

#include <limits>
#include <stdexcept>

namespace stand::host::http {

std::string base64_encode(std::string_view bytes) {
    if (bytes.size() > static_cast<std::size_t>(std::numeric_limits<int>::max() / 4 * 3))
        throw std::length_error("body too large to encode");
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()),
                                  static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::string form_urlencode(const std::vector<std::pair<std::string, std::string>>& fields) {
    boost::urls::encoding_opts opts;
    opts.space_as_plus = true;
    std::string out;
    for (const auto& [name, value] : fields) {
        if (!out.empty()) out += '&';
        out += boost::urls::encode(name, boost::urls::unreserved_chars, opts);
        out += '=';
        out += boost::urls::encode(value, boost::urls::unreserved_chars, opts);
    }
    return out;
}

}  // namespace stand::host::http
