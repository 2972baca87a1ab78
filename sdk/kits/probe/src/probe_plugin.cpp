// probe kit: ProbePlugin's errors (probe_plugin.hpp).
#include <stand/kits/probe/probe_plugin.hpp>

namespace stand_probe_kit {

void throw_no_job(const std::string& probe, const std::string& job_id, const std::vector<std::string_view>& ids) {
    std::string known;
    for (const auto id : ids) known += (known.empty() ? "" : ", ") + std::string(id);
    throw stand::cpp::Error(STAND_E_NOT_FOUND, probe + ": no job '" + job_id + "' (jobs: " + known + ")");
}

void throw_not_prepared(const std::string& probe, const std::string& job_id) {
    throw stand::cpp::Error(STAND_E_BAD_STATE, probe + ": job '" + job_id + "' was not prepared");
}

}  // namespace stand_probe_kit
