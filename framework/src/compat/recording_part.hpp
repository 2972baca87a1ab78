// `stand compat --record`, inside one panel check's child: the host records
// the exchanges (names and shapes only), and at the end of the check they are
// normalised and written to <parts dir>/<check id>.json for the parent to merge
// (recording_file.hpp). Nothing in a part is a value the panel answered.
#pragma once

#include "compat/recorded_path.hpp"
#include "host/plugin_host.hpp"
#include "isolation/interface_calls.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace stand::compat {

class RecordingPart {
public:
    // Records nothing when `parts_dir` is empty.
    RecordingPart(std::filesystem::path parts_dir, std::string check);

    bool on() const { return !parts_dir_.empty(); }
    // Makes the host built from `config` record its exchanges.
    void enable(host::HostConfig& config) const;
    // A user the suite created: its name becomes "{name}" in paths, the id and
    // the subscription token the panel returned "{id}".
    void note_user(const std::string& name, const std::string& id, const std::string& subscription_url);
    // Calls lifecycle.facts through `facts` when recording: a "secret_path_prefix" in its
    // reply (a prefix or a list of them) becomes "{base}" in paths, its
    // "versions" go into the part. Never throws (it runs in the rig's destructor).
    void note_facts(const std::function<isolation::CallOutcome()>& facts) noexcept;
    // Writes the part; a failure leaves no part, which the parent reports.
    void write(const host::HttpService& http) const noexcept;

    static std::filesystem::path file_for(const std::filesystem::path& parts_dir, const std::string& check);

private:
    std::filesystem::path parts_dir_;
    std::string check_;
    PathNames names_;
    std::vector<std::string> subscription_urls_;
    boost::json::object versions_;
};

}  // namespace stand::compat
