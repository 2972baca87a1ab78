#include "detect/box_cpu.hpp"

#include "box/cpu_list.hpp"

#include <algorithm>

namespace stand::detect {

BoxCpu box_cpu_of(const boost::json::value* box) {
    BoxCpu out;
    const auto* b = box != nullptr ? box->if_object() : nullptr;
    if (b == nullptr) return out;
    auto tighter = [&](double v) { out.vcpu = out.vcpu ? std::min(*out.vcpu, v) : v; };
    if (const auto* cpu = b->if_contains("cpu"); cpu && cpu->is_object()) {
        const auto& c = cpu->as_object();
        if (const auto* v = c.if_contains("vcpu"); v && v->is_number()) tighter(v->to_number<double>());
        if (const auto* p = c.if_contains("period_us"); p && p->is_number()) out.period_us = p->to_number<std::uint64_t>();
    }
    if (const auto* a = b->if_contains("ancestor_limits"); a && a->is_object())
        if (const auto* v = a->as_object().if_contains("vcpu"); v && v->is_object())
            if (const auto* x = v->as_object().if_contains("value"); x && x->is_number()) tighter(x->to_number<double>());
    if (const auto* s = b->if_contains("cpuset"); s && s->is_object())
        if (const auto* e = s->as_object().if_contains("cpus_effective"); e && e->is_string())
            if (auto set = box::parse_cpu_list(std::string(e->as_string())); set && !set->empty())
                tighter(static_cast<double>(set->size()));
    return out;
}

}  // namespace stand::detect
