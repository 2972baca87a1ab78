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

std::string read_input_file(const std::filesystem::path& file, std::uintmax_t max_bytes) {
    std::error_code ec;
    const auto status = std::filesystem::status(file, ec);
    if (ec) throw TextFileError("cannot read " + file.string() + ": " + ec.message());
    if (status.type() == std::filesystem::file_type::directory)
        throw TextFileError("cannot read " + file.string() + ": is a directory");
    if (status.type() != std::filesystem::file_type::regular)
        throw TextFileError("cannot read " + file.string() + ": not a regular file (a FIFO, socket or device); give a file");
    const auto size = std::filesystem::file_size(file, ec);
    if (!ec && size > max_bytes)
        throw TextFileError("cannot read " + file.string() + ": " + std::to_string(size) + " bytes, more than the " +
                            std::to_string(max_bytes) + " an input file may have");
    std::string text = read_text_file(file);
    if (text.size() > max_bytes)  // it grew while read
        throw TextFileError("cannot read " + file.string() + ": more than the " + std::to_string(max_bytes) +
                            " bytes an input file may have");
    return text;
}

void write_text_file(const std::filesystem::path& file, std::string_view text) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    if (!out) throw TextFileError("cannot write " + file.string() + ": " + std::strerror(errno));
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) throw TextFileError("cannot write " + file.string() + ": write error");
}

}  // namespace stand::text
