#include "compat/recording_file.hpp"

#include "compat/exchange_set.hpp"
#include "compat/recording_part.hpp"
#include "text/pretty_json.hpp"
#include "text/text_file.hpp"

#include <sstream>
#include <stdexcept>

namespace stand::compat {

namespace json = boost::json;

MergedRecording merge_recording_parts(const std::filesystem::path& parts_dir, const std::vector<std::string>& checks,
                                      const std::string& panel) {
    MergedRecording out;
    ExchangeSet set;
    json::object versions;
    for (const auto& check : checks) {
        const auto file = RecordingPart::file_for(parts_dir, check);
        if (!std::filesystem::exists(file)) {
            out.missing.push_back(check);
            continue;
        }
        boost::system::error_code ec;
        const json::value part = json::parse(text::read_input_file(file, std::uintmax_t{64} << 20), ec);
        const auto* exchanges = part.is_object() ? part.as_object().if_contains("exchanges") : nullptr;
        if (ec || exchanges == nullptr || !exchanges->is_array())
            throw std::runtime_error(file.string() + ": not a recording part ({\"check\", \"exchanges\": [...]})");
        if (const auto* v = part.as_object().if_contains("versions"); v && v->is_object())
            for (const auto& [name, version] : v->as_object()) versions[name] = version;
        for (const auto& e : exchanges->as_array()) {
            try {
                set.add(e.as_object());
            } catch (const std::exception& bad) {
                throw std::runtime_error(file.string() + ": " + bad.what());
            }
        }
    }
    out.document = {{"panel", panel}};
    if (!versions.empty()) out.document["versions"] = versions;
    out.document["origin"] = "recorded";
    out.document["exchanges"] = set.sorted();
    return out;
}

void write_recording(const std::filesystem::path& file, const json::object& document) {
    std::ostringstream text;
    text::write_pretty_json(text, document);
    text << "\n";
    try {
        text::write_text_file(file, text.str());
    } catch (const std::exception& e) {
        throw std::runtime_error(std::string("--record: ") + e.what());
    }
}

}  // namespace stand::compat
