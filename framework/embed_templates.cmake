# cmake -DTEMPLATES=<sdk/templates> -DKITS=<sdk/kits> -DOUT=<file.cpp> -P embed_templates.cmake
#
# Writes the adapter skeletons of sdk/templates (every file below one of its
# folders: panel/, proxy/, probe/, common/) into OUT as raw string literals,
# for `stand new adapter` (scaffold/template_files.hpp). Embedded, not
# installed: the binary always writes the skeletons it was built with, and
# nothing has to find a data folder at run time. Also the names of the
# classes and structs the kits' headers declare (kit_class_names()): an
# adapter whose class took one would hide the kit's and not build.
set(delimiter "stand_template")
file(GLOB_RECURSE files RELATIVE ${TEMPLATES} ${TEMPLATES}/*)
list(FILTER files INCLUDE REGEX "/")  # the folder's own README.md is not a skeleton
list(SORT files)
set(out "// Generated from sdk/templates by framework/embed_templates.cmake: do not edit.\n")
string(APPEND out "#include \"scaffold/template_files.hpp\"\n\nnamespace stand::scaffold {\n\n")
string(APPEND out "const std::vector<TemplateFile>& template_files() {\n    static const std::vector<TemplateFile> files{\n")
foreach(f ${files})
  file(READ ${TEMPLATES}/${f} text)
  string(FIND "${text}" ")${delimiter}\"" clash)
  if(NOT clash EQUAL -1)
    message(FATAL_ERROR "sdk/templates/${f} holds )${delimiter}\", which ends the raw string it is embedded in")
  endif()
  string(APPEND out "        {\"${f}\", R\"${delimiter}(${text})${delimiter}\"},\n")
endforeach()
string(APPEND out "    };\n    return files;\n}\n\n")
file(GLOB_RECURSE headers ${KITS}/*.hpp)
set(names "")
foreach(h ${headers})
  file(STRINGS ${h} lines REGEX "^(class|struct) [A-Za-z_][A-Za-z0-9_]*")
  foreach(line ${lines})
    string(REGEX REPLACE "^(class|struct) ([A-Za-z_][A-Za-z0-9_]*).*" "\\2" name "${line}")
    list(APPEND names ${name})
  endforeach()
endforeach()
list(REMOVE_DUPLICATES names)
list(SORT names)
string(APPEND out "const std::vector<std::string_view>& kit_class_names() {\n    static const std::vector<std::string_view> names{\n")
foreach(n ${names})
  string(APPEND out "        \"${n}\",\n")
endforeach()
string(APPEND out "    };\n    return names;\n}\n\n}  // namespace stand::scaffold\n")
file(WRITE ${OUT} "${out}")
