#include "text/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace stand::text {

std::string read_text_file(const std::filesystem::path& file) {
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec)) throw TextFileError("cannot read " + file.string() + ": is a directory");
    std::ifstream in(file, std::ios::binary);
    if (!in) throw TextFileError("cannot read " + file.string() + ": " + std::strerror(errno));
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) throw TextFileError("cannot read " + file.string() + ": read error");
    return text.str();
}

void write_text_file(const std::filesystem::path& file, std::string_view text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw TextFileError("cannot write " + file.string() + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) throw TextFileError("cannot write " + file.string() + ": write error");
}

}  // namespace stand::text
