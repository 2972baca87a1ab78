#include "detect/shared_machine.hpp"

#include <boost/json.hpp>

#include <map>

namespace stand::detect {

std::vector<Finding> check_shared_machine(const boost::json::array& fleet_hosts) {
    std::map<std::string, std::vector<std::string>> by_boot;  // boot id -> host names, in run order
    for (const auto& v : fleet_hosts) {
        const auto* h = v.if_object();
        if (h == nullptr) continue;
        const auto* boot = h->if_contains("boot_id");
        const auto* name = h->if_contains("name");
        if (boot == nullptr || !boot->is_string() || boot->get_string().empty() || name == nullptr ||
            !name->is_string())
            continue;
        by_boot[std::string(boot->get_string())].push_back(std::string(name->get_string()));
    }
    std::vector<Finding> out;
    for (const auto& [boot, names] : by_boot) {
        if (names.size() < 2) continue;
        std::string list;
        for (std::size_t i = 0; i < names.size(); ++i)
            list += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
        out.push_back({"hosts-share-a-machine", "hosts " + list,
                       list + " are one machine (kernel boot id " + boot.substr(0, 8) +
                           "...) and ran at the same time: each one's numbers include the others' load, and their "
                           "columns do not compare machines"});
    }
    return out;
}

}  // namespace stand::detect
