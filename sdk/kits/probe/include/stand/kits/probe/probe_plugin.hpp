// The one base of the probe plugins (stand.probe/1): the four calls of the
// C ABI, the job catalogue and its look-up, the state of each prepared job,
// and the errors every probe answers the same way. A probe plugin is its
// catalogue (`Job`: anything with a `const char* id`, in static storage),
// what it keeps of a prepared job (`Prepared`) and its hooks; it is declared
// with STAND_CPP_PLUGIN like any plugin and reads its config in its
// constructor.
//
// A call keeps the ABI's name (ext/probe.h) and its hook is that name +
// "_hook". Each call looks the job id up first (an unknown one is
// Error(STAND_E_NOT_FOUND) "<probe>: no job 'x' (jobs: a, b)"), then:
//   list_jobs()  runs list_jobs_hook() for each job, in the catalogue's order;
//   prepare()    runs prepare_hook(); what it returns is the job's state from
//                then on, in place of an earlier prepare()'s;
//   run()        runs run_hook() on that state; a job not prepared is
//                Error(STAND_E_BAD_STATE) "<probe>: job 'x' was not prepared";
//   cleanup()    runs cleanup_hook() on that state, which is gone afterwards
//                whatever the hook does; a job not prepared answers
//                STAND_OK_NOTHING_TO_DO and runs no hook.
// A hook fails by throwing stand::cpp::Error: its code and message are the
// call's answer.
//
// Threads: the host calls an instance from one thread at a time, its control
// thread (sdk stand/plugin.h: [control]); the hooks run on it, inside those
// calls. The jobs' state is destroyed with the base, after the plugin's own
// members and without a hook: a plugin whose state holds something to undo
// (a file) undoes it in its own destructor (prepared_jobs()).
#pragma once

#include <stand/kits/probe/probe_result.hpp>
#include <stand/stand.hpp>

#include <boost/json.hpp>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace stand_probe_kit {

// A job as list_jobs() lists it.
struct JobListing {
    std::string description;
    boost::json::value params_schema;  // JSON Schema of prepare()'s params
};

// Error(STAND_E_NOT_FOUND) "<probe>: no job '<job_id>' (jobs: <ids>)".
[[noreturn]] void throw_no_job(const std::string& probe, const std::string& job_id,
                               const std::vector<std::string_view>& ids);

// The job of `jobs` whose id is `job_id`, else throw_no_job().
template <class Job>
const Job& find_job(const std::string& probe, std::span<const Job> jobs, const std::string& job_id) {
    for (const Job& job : jobs)
        if (job_id == job.id) return job;
    std::vector<std::string_view> ids;
    for (const Job& job : jobs) ids.emplace_back(job.id);
    throw_no_job(probe, job_id, ids);
}
// Error(STAND_E_BAD_STATE) "<probe>: job '<job_id>' was not prepared".
[[noreturn]] void throw_not_prepared(const std::string& probe, const std::string& job_id);

template <class Job, class Prepared>
class ProbePlugin : public stand::cpp::Instance, public stand::cpp::Probe {
public:
    boost::json::array list_jobs() final {
        boost::json::array out;
        for (const Job& job : jobs_) {
            JobListing listing = list_jobs_hook(job);
            out.push_back(boost::json::object{{"id", job.id},
                                              {"description", std::move(listing.description)},
                                              {"params_schema", std::move(listing.params_schema)}});
        }
        return out;
    }

    void prepare(const std::string& job_id, const boost::json::object& params) final {
        const Job& job = job_of(job_id);
        Prepared state = prepare_hook(job, params);
        prepared_.insert_or_assign(job_id, std::move(state));
    }

    boost::json::object run(const std::string& job_id) final {
        const Job& job = job_of(job_id);
        const auto it = prepared_.find(job_id);
        if (it == prepared_.end()) throw_not_prepared(probe_, job_id);
        return run_hook(job, it->second).to_json();
    }

    stand_result cleanup(const std::string& job_id) final {
        const Job& job = job_of(job_id);
        std::optional<Prepared> state = take_prepared(job_id);
        if (!state) return STAND_OK_NOTHING_TO_DO;
        cleanup_hook(job, *state);
        return STAND_OK;
    }

protected:
    // `probe`: the plugin id, the first word of every error. `jobs`: the
    // catalogue, in static storage (it is not copied).
    ProbePlugin(const stand::cpp::Host& host, std::string probe, std::span<const Job> jobs)
        : host_(host), probe_(std::move(probe)), jobs_(jobs) {}

    // --- hooks: each <call>_hook() runs inside its call, on the control thread
    // list_jobs_hook(): how list_jobs() lists `job` (the catalogue's): its
    // description, and the JSON Schema of the params prepare_hook() reads
    // (declared once in a ConfigSpec, so the two agree).
    virtual JobListing list_jobs_hook(const Job& job) const = 0;
    // prepare_hook(): `params` (the caller's, only read during the call) read
    // and checked, an error naming the param (STAND_E_INVALID_ARGUMENT); then
    // what must not be timed: the test directory checked (test_dir.hpp), test
    // files written in full, the tool looked for (STAND_E_UNSUPPORTED when it
    // is missing). Long work polls cancelled() and throws
    // Error(STAND_E_CANCELLED). The state returned is the base's from then on.
    // The job's earlier state (prepared, not cleaned up) is kept meanwhile
    // and dropped without cleanup_hook() once this returns, or kept when
    // this throws; take_prepared() takes it first, to undo or reuse what it
    // holds.
    virtual Prepared prepare_hook(const Job& job, const boost::json::object& params) = 0;
    // run_hook(): measures the prepared job. `state` is the base's, valid
    // during the call. Polls cancelled() at least every 100 ms and throws
    // Error(STAND_E_CANCELLED) when it is set; reports progress. The result
    // is run()'s answer; a measurement that failed is STAND_E_IO.
    virtual ProbeResult run_hook(const Job& job, const Prepared& state) = 0;
    // cleanup_hook(): removes what only the prepared job used (its test
    // file). `state` was taken out of the base before the call and is
    // destroyed after it: the job is not prepared any more, even when this
    // throws. By default nothing.
    virtual void cleanup_hook(const Job& job, Prepared& state) {
        (void)job;
        (void)state;
    }

    // --- for the hooks ---
    const stand::cpp::Host& host() const { return host_; }
    // Whether the host cancelled the current call (Ctrl-C): stop, throw Error(STAND_E_CANCELLED).
    bool cancelled() const { return host_.cancelled(); }
    // A progress line: `fraction` 0..1 done, or < 0 when unknown.
    void report_progress(double fraction, const char* message) const { host_.report_progress(fraction, message); }
    // The job's state, taken out of the base; nullopt when it is not prepared.
    std::optional<Prepared> take_prepared(const std::string& job_id) {
        const auto it = prepared_.find(job_id);
        if (it == prepared_.end()) return std::nullopt;
        std::optional<Prepared> state(std::move(it->second));
        prepared_.erase(it);
        return state;
    }
    // The prepared jobs by id.
    const std::map<std::string, Prepared>& prepared_jobs() const { return prepared_; }

private:
    const Job& job_of(const std::string& job_id) const { return find_job(probe_, jobs_, job_id); }

    stand::cpp::Host host_;
    std::string probe_;
    std::span<const Job> jobs_;
    std::map<std::string, Prepared> prepared_;
};

}  // namespace stand_probe_kit
