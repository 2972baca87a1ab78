// What a panel run from its Python source is made of on disk, for facts()
// "artifacts": the virtualenv of its interpreter and the interpreter the venv
// was made from, with its standard library. A venv's bin/python is a
// symbolic link, which artifacts never follow, so the real interpreter is
// named here instead.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace stand_pasarguard {

// `python`: the interpreter the panel runs (a venv's bin/python3 or a plain
// one). Returns existing paths: the venv folder (when `python` is in one and
// it is not below `skip_below`, a folder already counted), the resolved
// interpreter binary when it is outside that venv, and its lib/pythonX.Y.
std::vector<std::string> python_artifacts(const std::filesystem::path& python, const std::filesystem::path& skip_below);

}  // namespace stand_pasarguard
