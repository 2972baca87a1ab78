#include "compat/recording_part.hpp"

#include "compat/exchange_set.hpp"
#include "text/text_file.hpp"

namespace stand::compat {

namespace json = boost::json;

RecordingPart::RecordingPart(std::filesystem::path parts_dir, std::string check)
    : parts_dir_(std::move(parts_dir)), check_(std::move(check)) {}

void RecordingPart::enable(host::HostConfig& config) const { config.record_http_exchanges = on(); }

void RecordingPart::note_user(const std::string& name, const std::string& id, const std::string& subscription_url) {
    names_.user_names.insert(name);
    names_.user_ids.insert(id);
    subscription_urls_.push_back(subscription_url);
}

void RecordingPart::note_facts(const std::function<isolation::CallOutcome()>& facts) noexcept {
    if (!on()) return;
    try {
        const auto reply = facts();
        if (reply.code < 0 || reply.output.empty()) return;
        boost::system::error_code ec;
        const json::value v = json::parse(reply.output, ec);
        if (ec || !v.is_object()) return;
        if (const auto* base = v.as_object().if_contains("secret_path_prefix")) {
            if (base->is_string()) names_.base_paths.emplace_back(base->as_string());
            if (base->is_array())
                for (const auto& b : base->as_array())
                    if (b.is_string()) names_.base_paths.emplace_back(b.as_string());
        }
        if (const auto* versions = v.as_object().if_contains("versions"); versions && versions->is_object())
            versions_ = versions->as_object();
    } catch (const std::exception&) {
        // no facts: a base path stays one more {id}
    }
}

std::filesystem::path RecordingPart::file_for(const std::filesystem::path& parts_dir, const std::string& check) {
    return parts_dir / (check + ".json");
}

void RecordingPart::write(const host::HttpService& http) const noexcept {
    if (!on()) return;
    try {
        PathNames names = names_;
        names.user_ids.merge(subscription_tokens(subscription_urls_));
        ExchangeSet set;
        for (const auto& e : http.exchanges()) {
            const std::string path = normalise_path(e.path, names);
            json::array cookies, headers;
            for (const auto& c : e.cookies) cookies.emplace_back(c);
            for (const auto& h : e.headers) headers.emplace_back(h);
            set.add({{"label", normalise_label(e.label, e.method, e.path, path)},
                     {"method", e.method},
                     {"path", path},
                     {"status", e.status},
                     {"response", {{"content_type", e.content_type},
                                   {"cookies", std::move(cookies)},
                                   {"headers", std::move(headers)},
                                   {"body", e.body}}},
                     {"checks", json::array{check_}}});
        }
        text::write_text_file(file_for(parts_dir_, check_),
                                json::serialize(json::object{{"check", check_}, {"versions", versions_}, {"exchanges", set.sorted()}}));
    } catch (const std::exception&) {
        // no part: the parent names the check whose part is missing
    }
}

}  // namespace stand::compat
