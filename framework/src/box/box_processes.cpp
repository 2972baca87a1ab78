#include "box/box_processes.hpp"

#include "box/kill_group.hpp"

#include <algorithm>
#include <fstream>
#include <map>
#include <set>

namespace stand::box {

namespace fs = std::filesystem;
namespace json = boost::json;

std::vector<fs::path> with_subgroups(const std::vector<fs::path>& dirs) {
    std::vector<fs::path> all;
    for (const auto& d : dirs) {
        all.push_back(d);
        std::error_code ec;
        for (fs::recursive_directory_iterator it(d, ec), end; !ec && it != end; it.increment(ec))
            if (it->is_directory(ec)) all.push_back(it->path());
    }
    return all;
}

std::vector<BoxProcess> box_processes(const std::vector<fs::path>& dirs) {
    std::vector<BoxProcess> out;
    for (pid_t pid : group_pids(with_subgroups(dirs))) {
        std::ifstream comm("/proc/" + std::to_string(pid) + "/comm");
        std::string name;
        if (!comm || !std::getline(comm, name)) continue;
        out.push_back({pid, name});
    }
    std::sort(out.begin(), out.end(), [](const BoxProcess& a, const BoxProcess& b) { return a.pid < b.pid; });
    return out;
}

ProcessChanges compare_processes(const std::vector<BoxProcess>& before, const std::vector<BoxProcess>& after) {
    auto pids_of = [](const std::vector<BoxProcess>& v) {
        std::set<pid_t> s;
        for (const auto& p : v) s.insert(p.pid);
        return s;
    };
    const auto before_pids = pids_of(before), after_pids = pids_of(after);
    ProcessChanges c;
    for (const auto& p : before)
        if (!after_pids.count(p.pid)) c.gone.push_back(p);
    for (const auto& p : after)
        if (!before_pids.count(p.pid)) c.started.push_back(p);
    std::map<std::string, std::pair<std::vector<pid_t>, std::vector<pid_t>>> by_name;
    for (const auto& p : c.gone) by_name[p.name].first.push_back(p.pid);
    for (const auto& p : c.started) by_name[p.name].second.push_back(p.pid);
    std::set<std::string> surviving;  // names with a PID in both looks
    for (const auto& p : before)
        if (after_pids.count(p.pid)) surviving.insert(p.name);
    for (const auto& [name, pids] : by_name) {
        if (pids.first.empty() || pids.second.empty()) continue;
        auto list = [](const std::vector<pid_t>& v) {
            std::string s;
            for (pid_t p : v) s += (s.empty() ? "" : ",") + std::to_string(p);
            return s;
        };
        (surviving.count(name) ? c.turnover : c.replaced).push_back(name + " " + list(pids.first) + " -> " + list(pids.second));
    }
    return c;
}

json::object ProcessChanges::to_json(const std::vector<BoxProcess>& before, const std::vector<BoxProcess>& after) const {
    auto list = [](const std::vector<BoxProcess>& v) {
        json::array a;
        for (const auto& p : v) a.push_back(json::object{{"pid", p.pid}, {"name", p.name}});
        return a;
    };
    json::array names;
    for (const auto& r : replaced) names.push_back(json::value(r));
    json::array churned;
    for (const auto& r : turnover) churned.push_back(json::value(r));
    return {{"before", list(before)}, {"after", list(after)}, {"gone", list(gone)}, {"started", list(started)},
            {"replaced", names}, {"turnover", churned}};
}

}  // namespace stand::box
