// `stand compat --record FILE`, in the parent: merges the parts the panel
// checks' children wrote (recording_part.hpp) into one recording document,
// the format of tests/data/real-panels/<panel>-<version>/recording.json
// ("version" and "how" are added by tests/real-panels/record.sh).
#pragma once

#include <boost/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace stand::compat {

struct MergedRecording {
    // {"panel", "versions" (the plugin's facts, when it reports them), "origin": "recorded", "exchanges": [...]}
    boost::json::object document;
    std::vector<std::string> missing;  // checks of `checks` that left no part
};

// Throws std::runtime_error naming an unreadable or malformed part.
MergedRecording merge_recording_parts(const std::filesystem::path& parts_dir, const std::vector<std::string>& checks,
                                      const std::string& panel);

// Writes the document one member per line; throws naming the file.
void write_recording(const std::filesystem::path& file, const boost::json::object& document);

}  // namespace stand::compat
