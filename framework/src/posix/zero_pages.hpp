// A fixed-size array of zeroed counters in its own anonymous mapping: a page
// of it becomes resident when a counter in it is first written, so a large,
// sparsely used array (a histogram's slots) costs the pages its values fall
// in, not its whole length. Reading an untouched page maps the kernel's zero
// page and costs nothing. (std::vector's value-initialization writes, and so
// makes resident, every page at once.)
#pragma once

#include <cstddef>
#include <cstdint>

namespace stand::posix {

class ZeroPages {
public:
    ZeroPages() = default;
    // Throws std::bad_alloc when the mapping is refused.
    explicit ZeroPages(std::size_t count);
    ~ZeroPages();
    ZeroPages(const ZeroPages& other);  // copies the non-zero counters only
    ZeroPages& operator=(const ZeroPages& other);
    ZeroPages(ZeroPages&& other) noexcept;
    ZeroPages& operator=(ZeroPages&& other) noexcept;

    std::size_t size() const noexcept { return count_; }
    bool empty() const noexcept { return count_ == 0; }
    std::uint64_t& operator[](std::size_t i) noexcept { return data_[i]; }
    std::uint64_t operator[](std::size_t i) const noexcept { return data_[i]; }
    // Every counter back to 0, the pages handed back to the kernel.
    void clear() noexcept;

private:
    void release() noexcept;

    std::uint64_t* data_ = nullptr;
    std::size_t count_ = 0;
};

}  // namespace stand::posix
