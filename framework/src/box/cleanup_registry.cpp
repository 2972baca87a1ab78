#include "box/cleanup_registry.hpp"

#include <algorithm>
#include <mutex>
#include <vector>

namespace stand::box {
namespace {

struct Registry {
    std::mutex mutex;
    std::vector<std::shared_ptr<Cleanable>> items;
};

Registry& registry() {
    static Registry* r = new Registry;  // never destroyed: usable during static destruction
    return *r;
}

}  // namespace

void register_cleanable(std::shared_ptr<Cleanable> item) {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    r.items.push_back(std::move(item));
}

void unregister_cleanable(const Cleanable* item) noexcept {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    std::erase_if(r.items, [&](const auto& p) { return p.get() == item; });
}

std::size_t cleanup_all_boxes() noexcept {
    std::vector<std::shared_ptr<Cleanable>> all;
    {
        auto& r = registry();
        std::lock_guard lock(r.mutex);
        all.swap(r.items);
    }
    // Newest first: a later box may live inside an earlier one's tree.
    for (auto it = all.rbegin(); it != all.rend(); ++it) (*it)->destroy();
    return all.size();
}

std::size_t live_box_count() noexcept {
    auto& r = registry();
    std::lock_guard lock(r.mutex);
    return r.items.size();
}

}  // namespace stand::box
