// The adapter skeletons of sdk/templates and the kits' class names, embedded
// into the binary at build time (framework/embed_templates.cmake writes their
// definition).
#pragma once

#include <string_view>
#include <vector>

namespace stand::scaffold {

struct TemplateFile {
    std::string_view path;  // relative to sdk/templates: "<interface or common>/<path in the project>"
    std::string_view text;  // with %%placeholders%% (adapter_project.hpp)
};

// Sorted by path.
const std::vector<TemplateFile>& template_files();

// The classes and structs the SDK's kits declare at namespace scope (an
// adapter class of one of these names would hide the kit's), sorted.
const std::vector<std::string_view>& kit_class_names();

}  // namespace stand::scaffold
