#include "scenario/scenario_error.hpp"

namespace stand::scenario {

ScenarioError::ScenarioError(std::filesystem::path file, std::string json_path, std::string message)
    : std::runtime_error(file.string() + ": " + (json_path.empty() ? "" : json_path + ": ") + message),
      file_(std::move(file)),
      json_path_(std::move(json_path)),
      message_(std::move(message)) {}

ScenarioError::ScenarioError(std::filesystem::path file, std::size_t line, std::size_t column, std::string message)
    : std::runtime_error(file.string() + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + message),
      file_(std::move(file)),
      message_(std::move(message)),
      line_(line),
      column_(column) {}

}  // namespace stand::scenario
