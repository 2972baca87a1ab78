#include "fleet/host_facts.hpp"

#include "box/cgroup_fs.hpp"
#include "box/cgroup_layout.hpp"
#include "box/cpu_list.hpp"
#include "detect/host_facts.hpp"
#include "fleet/build_id.hpp"

#include <stand/version.h>

#include <boost/json.hpp>

namespace stand::fleet {

namespace json = boost::json;

boost::json::object own_facts() {
    const auto layout = box::detect_cgroup_layout();
    const auto cpus = box::online_cpus();
    const char* cgroup = !layout.backend ? "none" : *layout.backend == box::CgroupVersion::v2 ? "v2" : "v1";
    return json::object{
        {"stand", json::object{{"version", STAND_HOST_VERSION},
                               {"abi", std::to_string(STAND_ABI_MAJOR) + "." + std::to_string(STAND_ABI_MINOR)},
                               {"sdk", STAND_SDK_VERSION_STRING},
                               {"build_id", own_build_id()}}},
        {"cgroup", cgroup},
        {"cgroup_detail", layout.describe()},
        {"cpus_online", cpus ? box::format_cpu_list(*cpus) : std::string("unknown")},
        {"cpu_count", cpus ? static_cast<std::int64_t>(cpus->size()) : 0},
        {"machine", detect::collect_host_facts()},
        // Tells hosts that are one machine apart (detect/shared_machine.hpp).
        {"boot_id", box::read_value("/proc/sys/kernel/random/boot_id").value_or("")},
    };
}

std::string mismatch(const json::object& local, const json::object& remote) {
    const json::object* mine = local.at("stand").if_object();
    const json::value* theirs_v = remote.if_contains("stand");
    const json::object* theirs = theirs_v ? theirs_v->if_object() : nullptr;
    if (mine == nullptr || theirs == nullptr) return "its facts do not say which stand it runs";
    for (const char* key : {"version", "abi", "build_id"}) {
        const json::value* a = mine->if_contains(key);
        const json::value* b = theirs->if_contains(key);
        if (a == nullptr || b == nullptr || *a != *b)
            return std::string("its stand's ") + key + " is " + (b ? json::serialize(*b) : "unknown") + ", this one's " +
                   (a ? json::serialize(*a) : "unknown");
    }
    return {};
}

}  // namespace stand::fleet
