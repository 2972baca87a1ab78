// One event of `sysbench memory` (src/tests/memory/sb_memory.c, sequential
// access): the block is read or written one machine word at a time through
// volatile accesses (sysbench uses ck_pr_load_64/ck_pr_store_64), so the
// compiler neither drops nor vectorises them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace stand_sysprobe {

// A zeroed, page-aligned buffer of words (sysbench: sb_memalign + memset).
class MemoryBlock {
public:
    explicit MemoryBlock(std::size_t bytes);
    std::uint64_t* words() noexcept { return words_.get(); }
    const std::uint64_t* words() const noexcept { return words_.get(); }
    std::size_t word_count() const noexcept { return count_; }
    std::size_t bytes() const noexcept { return count_ * sizeof(std::uint64_t); }

private:
    struct Free {
        void operator()(std::uint64_t* p) const noexcept;
    };
    std::unique_ptr<std::uint64_t[], Free> words_;
    std::size_t count_;
};

// Loads every word; returns the last one loaded.
std::uint64_t read_block(const MemoryBlock& block) noexcept;
// Stores `value` into every word.
void write_block(MemoryBlock& block, std::uint64_t value) noexcept;

// sysbench's report: events * block size in MiB, divided by the run's time.
double mib_per_second(std::uint64_t events, std::uint64_t block_bytes, double seconds) noexcept;

}  // namespace stand_sysprobe
