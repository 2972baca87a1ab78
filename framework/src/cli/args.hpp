// A small strict command-line parser: declared options only, `--name value`
// or `--name=value`, flags, positionals; anything else is a UsageError.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace stand::cli {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct OptionSpec {
    std::string name;     // without dashes: "plugin-path"
    bool takes_value = false;
    bool repeatable = false;
};

class Args {
public:
    // Parses argv[first..] against `specs`; `command` names the command in errors.
    Args(const std::string& command, const std::vector<std::string>& argv, const std::vector<OptionSpec>& specs);

    bool flag(const std::string& name) const;
    std::optional<std::string> value(const std::string& name) const;
    std::vector<std::string> values(const std::string& name) const;
    const std::vector<std::string>& positionals() const noexcept { return positionals_; }
    // The file option `name` names, checked by the input-file rule (a regular
    // file, not a FIFO or device, of at most `max_bytes`: text::read_input_file)
    // for a file another library or program reads; throws UsageError naming
    // the option. Empty when the option is not given.
    std::string check_input_file(const std::string& name, std::uintmax_t max_bytes = std::uintmax_t{4} << 20) const;
    // Throws UsageError unless there are between min and max positionals.
    void expect_positionals(std::size_t min, std::size_t max, const std::string& what) const;

private:
    std::string command_;
    std::map<std::string, std::vector<std::string>> values_;
    std::vector<std::string> positionals_;
};

}  // namespace stand::cli
