#include "posix/zero_pages.hpp"

#include <sys/mman.h>

#include <new>
#include <utility>

namespace stand::posix {

namespace {

std::size_t bytes_of(std::size_t count) { return count * sizeof(std::uint64_t); }

std::uint64_t* map_zeroed(std::size_t count) {
    if (count == 0) return nullptr;
    void* p = ::mmap(nullptr, bytes_of(count), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    return static_cast<std::uint64_t*>(p);
}

}  // namespace

ZeroPages::ZeroPages(std::size_t count) : data_(map_zeroed(count)), count_(count) {}

ZeroPages::~ZeroPages() { release(); }

void ZeroPages::release() noexcept {
    if (data_ != nullptr) ::munmap(data_, bytes_of(count_));
    data_ = nullptr;
    count_ = 0;
}

ZeroPages::ZeroPages(const ZeroPages& other) : data_(map_zeroed(other.count_)), count_(other.count_) {
    for (std::size_t i = 0; i < count_; ++i)
        if (other.data_[i] != 0) data_[i] = other.data_[i];
}

ZeroPages& ZeroPages::operator=(const ZeroPages& other) {
    if (this != &other) {
        ZeroPages copy(other);
        *this = std::move(copy);
    }
    return *this;
}

ZeroPages::ZeroPages(ZeroPages&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}

ZeroPages& ZeroPages::operator=(ZeroPages&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        count_ = std::exchange(other.count_, 0);
    }
    return *this;
}

void ZeroPages::clear() noexcept {
    // Private anonymous memory reads back as zeros after MADV_DONTNEED.
    if (data_ != nullptr) ::madvise(data_, bytes_of(count_), MADV_DONTNEED);
}

}  // namespace stand::posix
