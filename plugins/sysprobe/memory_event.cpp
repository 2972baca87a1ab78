#include "memory_event.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace stand_sysprobe {

void MemoryBlock::Free::operator()(std::uint64_t* p) const noexcept { std::free(p); }

MemoryBlock::MemoryBlock(std::size_t bytes) : count_(bytes / sizeof(std::uint64_t)) {
    if (count_ == 0) throw std::invalid_argument("a memory block needs at least 8 bytes, got " + std::to_string(bytes));
    const long page = ::sysconf(_SC_PAGESIZE);
    const std::size_t align = page > 0 ? static_cast<std::size_t>(page) : 4096;
    const std::size_t size = (this->bytes() + align - 1) / align * align;
    void* p = std::aligned_alloc(align, size);
    if (p == nullptr) throw std::bad_alloc();
    std::memset(p, 0, size);
    words_.reset(static_cast<std::uint64_t*>(p));
}

std::uint64_t read_block(const MemoryBlock& block) noexcept {
    const volatile std::uint64_t* p = block.words();
    const volatile std::uint64_t* const end = p + block.word_count();
    std::uint64_t last = 0;
    for (; p < end; ++p) last = *p;
    return last;
}

void write_block(MemoryBlock& block, std::uint64_t value) noexcept {
    volatile std::uint64_t* p = block.words();
    volatile std::uint64_t* const end = p + block.word_count();
    for (; p < end; ++p) *p = value;
}

double mib_per_second(std::uint64_t events, std::uint64_t block_bytes, double seconds) noexcept {
    if (seconds <= 0) return 0;
    return static_cast<double>(events) * static_cast<double>(block_bytes) / (1024.0 * 1024.0) / seconds;
}

}  // namespace stand_sysprobe
