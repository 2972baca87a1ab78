#include "scenario/data_bytes.hpp"

namespace stand::scenario {

namespace fs = std::filesystem;

double data_bytes(const std::vector<fs::path>& dirs) {
    double bytes = 0;
    for (const auto& root : dirs) {
        std::error_code ec;
        if (!fs::exists(root, ec)) continue;
        for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::recursive_directory_iterator();
             it.increment(ec))
            if (!it->is_symlink(ec) && it->is_regular_file(ec)) bytes += static_cast<double>(it->file_size(ec));
    }
    return bytes;
}

}  // namespace stand::scenario
