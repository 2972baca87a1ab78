#include <stand/kits/panel/credentials.hpp>

#include <stand/cpp/error.hpp>

#include <boost/json.hpp>
#include <openssl/rand.h>

#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace stand_panel_kit {

namespace json = boost::json;
using stand::cpp::Error;

std::string random_uuid() {
    std::string h = random_hex(16);
    h[12] = '4';
    h[16] = "89ab"[h[16] % 4];
    return h.substr(0, 8) + "-" + h.substr(8, 4) + "-" + h.substr(12, 4) + "-" + h.substr(16, 4) + "-" + h.substr(20);
}

std::string random_hex(std::size_t bytes) {
    std::vector<unsigned char> raw(bytes);
    if (RAND_bytes(raw.data(), static_cast<int>(raw.size())) != 1) throw Error(STAND_E_IO, "RAND_bytes failed");
    static const char* digits = "0123456789abcdef";
    std::string out;
    for (unsigned char b : raw) {
        out += digits[b >> 4];
        out += digits[b & 0x0f];
    }
    return out;
}

void write_private_file(const std::filesystem::path& file, const std::string& text) {
    std::filesystem::create_directories(file.parent_path());
    int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) throw Error(STAND_E_IO, "cannot write " + file.string());
    ::fchmod(fd, 0600);  // an existing file keeps its mode on open()
    bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!ok) throw Error(STAND_E_IO, "cannot write " + file.string());
}

void declare_credential_keys(stand::cpp::ConfigSpec& spec, const std::string& default_username,
                             const std::string& username_note, const std::string& password_note) {
    spec.string("username", username_note).by_default(default_username);
    spec.string("password", password_note + "; generated and kept 0600 beside the data dir when absent; never logged")
        .secret();
}

void declare_api_key(stand::cpp::ConfigSpec& spec, const std::string& name, const std::string& note,
                     bool generated_when_absent) {
    spec.string(name, note + (generated_when_absent ? "; generated and kept 0600 beside the data dir when absent" : "") +
                          "; never logged")
        .secret();
}

std::string load_or_create_api_key(const stand::cpp::Host& host, const std::filesystem::path& file,
                                   const std::string& given, std::size_t bytes) {
    std::string key = given;
    if (key.empty()) {
        std::ifstream in{file};
        std::getline(in, key);
    }
    if (key.empty()) {
        key = random_hex(bytes);
        write_private_file(file, key + "\n");
    }
    host.mark_secret(key);
    return key;
}

Credentials read_given_credentials(stand::cpp::ConfigValues& cfg) {
    Credentials given;
    given.username = cfg.string("username");
    given.password = cfg.string("password");
    return given;
}

namespace {

Credentials stored_or_new_credentials(const std::filesystem::path& file, const Credentials& given,
                                      const std::string& prefix, const std::string& suffix) {
    if (!given.password.empty()) return given;
    if (std::ifstream in{file}) {
        std::stringstream ss;
        ss << in.rdbuf();
        boost::system::error_code ec;
        auto v = json::parse(ss.str(), ec);
        if (ec || !v.is_object() || !v.as_object().contains("username") || !v.as_object().contains("password"))
            throw Error(STAND_E_INVALID_ARGUMENT, file.string() + ": not a credentials file ({username, password})");
        return {std::string(v.at("username").as_string()), std::string(v.at("password").as_string())};
    }
    Credentials c = given;
    c.password = prefix + random_hex(12) + suffix;
    write_private_file(file, json::serialize(json::object{{"username", c.username}, {"password", c.password}}));
    return c;
}

}  // namespace

Credentials load_or_create_credentials(const stand::cpp::Host& host, const std::filesystem::path& file,
                                       const Credentials& given, const std::string& prefix, const std::string& suffix) {
    Credentials c = stored_or_new_credentials(file, given, prefix, suffix);
    host.mark_secret(c.password);
    return c;
}

}  // namespace stand_panel_kit
