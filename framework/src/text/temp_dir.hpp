// A private temporary directory (mode 0700, under $TMPDIR or /tmp): made by
// make_temp_dir, or owned by a TempDir that removes it with everything in it
// when it goes.
#pragma once

#include <filesystem>
#include <string_view>

namespace stand::text {

// "<tmp>/<prefix>-XXXXXX". Throws std::runtime_error naming what it was for.
std::filesystem::path make_temp_dir(std::string_view prefix);

class TempDir {
public:
    explicit TempDir(std::string_view prefix) : path_(make_temp_dir(prefix)) {}
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const noexcept { return path_; }

private:
    std::filesystem::path path_;
};

}  // namespace stand::text
