#include "cli/output_file.hpp"

#include "cli/args.hpp"

#include <unistd.h>

#include <filesystem>
#include <optional>

namespace stand::cli {
namespace {

namespace fs = std::filesystem;

// The file a write to `file` opens: through its links, each target taken
// from its link's folder; nullopt for a loop of links (as the kernel: 40).
std::optional<fs::path> written_file(fs::path file) {
    for (int hops = 0; hops < 40; ++hops) {
        std::error_code ec;
        if (!fs::is_symlink(fs::symlink_status(file, ec))) return file;
        const fs::path target = fs::read_symlink(file, ec);
        if (ec) return file;
        file = target.is_absolute() ? target : file.parent_path() / target;
    }
    return std::nullopt;
}

// The file as one path: absolute, its folders' links resolved.
fs::path identity(const std::string& file) {
    const fs::path written = written_file(file).value_or(fs::path(file));
    std::error_code ec;
    const fs::path canonical = fs::weakly_canonical(fs::absolute(written, ec), ec);
    return ec ? fs::absolute(written).lexically_normal() : canonical;
}

}  // namespace

void check_output_file(const std::string& command, const std::string& flag, const std::string& file) {
    const std::string named = command + ": --" + flag;
    if (file.empty()) throw UsageError(named + ": an empty file name; name a file");
    std::error_code ec;
    if (const auto st = fs::status(file, ec); fs::exists(st)) {  // through its links, as the write opens it
        if (!fs::is_regular_file(st))
            throw UsageError(named + " " + file + ": not a regular file (a directory, FIFO or device); name a file");
        if (::access(file.c_str(), W_OK) != 0) throw UsageError(named + " " + file + ": not writable");
        return;
    }
    const auto written = written_file(file);  // absent, or a dangling link: the file the write makes
    if (!written) throw UsageError(named + " " + file + ": a loop of links; name a file");
    const std::string via = *written == fs::path(file) ? "" : ": a link to " + written->string();
    const fs::path dir = written->has_parent_path() ? written->parent_path() : fs::path(".");
    if (!fs::is_directory(dir, ec) || ::access(dir.c_str(), W_OK) != 0)
        throw UsageError(named + " " + file + via + ": cannot write into " + dir.string());
}

void refuse_same_output_file(const std::string& command, const std::string& flag_a, const std::string& a,
                             const std::string& flag_b, const std::string& b) {
    std::error_code ec;
    if (identity(a) != identity(b) && !fs::equivalent(a, b, ec)) return;
    throw UsageError(command + ": --" + flag_a + " " + a + " and --" + flag_b + " " + b +
                     " name the same file; one would overwrite the other: give two files");
}

}  // namespace stand::cli
