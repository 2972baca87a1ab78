#include "cli/args.hpp"

#include "text/text_file.hpp"

#include <algorithm>

namespace stand::cli {

Args::Args(const std::string& command, const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs)
    : command_(command) {
    auto find = [&](const std::string& name) -> const OptionSpec* {
        auto it = std::find_if(specs.begin(), specs.end(), [&](const OptionSpec& s) { return s.name == name; });
        return it == specs.end() ? nullptr : &*it;
    };
    bool only_positionals = false;
    for (std::size_t i = 0; i < argv.size(); ++i) {
        const std::string& arg = argv[i];
        if (only_positionals || arg.size() < 2 || arg[0] != '-' ) {
            positionals_.push_back(arg);
            continue;
        }
        if (arg == "--") {
            only_positionals = true;
            continue;
        }
        std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
        std::optional<std::string> inline_value;
        if (auto eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name = name.substr(0, eq);
        }
        const OptionSpec* spec = find(name);
        if (spec == nullptr)
            throw UsageError("unknown option '" + arg + "' for '" + command_ + "' (see stand " + command_ + " --help)");
        std::string value = "true";
        if (spec->takes_value) {
            if (inline_value) value = *inline_value;
            else if (i + 1 < argv.size()) value = argv[++i];
            else throw UsageError("option --" + name + " of '" + command_ + "' needs a value");
        } else if (inline_value) {
            throw UsageError("option --" + name + " of '" + command_ + "' takes no value");
        }
        auto& slot = values_[name];
        if (!slot.empty() && !spec->repeatable)
            throw UsageError("option --" + name + " of '" + command_ + "' given more than once");
        slot.push_back(value);
    }
}

bool Args::flag(const std::string& name) const { return values_.count(name) != 0; }

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end() || it->second.empty()) return std::nullopt;
    return it->second.back();
}

std::vector<std::string> Args::values(const std::string& name) const {
    auto it = values_.find(name);
    return it == values_.end() ? std::vector<std::string>{} : it->second;
}

std::string Args::check_input_file(const std::string& name, std::uintmax_t max_bytes) const {
    const auto file = value(name);
    if (!file) return {};
    try {
        text::check_input_file(*file, max_bytes);
    } catch (const text::TextFileError& e) {
        throw UsageError("--" + name + ": " + e.what());
    }
    return *file;
}

void Args::expect_positionals(std::size_t min, std::size_t max, const std::string& what) const {
    if (positionals_.size() < min) throw UsageError("'" + command_ + "' needs " + what);
    if (positionals_.size() > max)
        throw UsageError("unexpected argument '" + positionals_[max] + "' for '" + command_ + "'");
}

}  // namespace stand::cli
