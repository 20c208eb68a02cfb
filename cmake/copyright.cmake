# The machine-readable copyright file (DEP-5) each .deb installs as share/doc/<package>/copyright:
# pykern's own files, then the third-party code compiled into its binaries, each with the
# license text its source carries: the LICENSE files of the tree-sitter releases fetched at
# configure time, and the Debian package's own copyright file for what comes from Debian
# (static archives and header-only libraries). Nothing third-party is committed: the texts are
# read here, at configure time, from the build tree and /usr/share/doc.
#   pykern_write_copyright(OUT)

# DEP-5 continuation lines: each line indented one space, an empty line written " .".
function(_pykern_dep5_text text out)
  string(REGEX REPLACE "^\n+|[ \t\n]+$" "" text "${text}")
  string(REGEX REPLACE "[ \t]+\n" "\n" text "${text}")
  string(REPLACE "\n" "\n " text " ${text}")
  string(REGEX REPLACE "\n[ \t]*(\n|$)" "\n .\\1" text "${text}")
  string(REGEX REPLACE "\n[ \t]*(\n|$)" "\n .\\1" text "${text}")  # runs of empty lines
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# A LICENSE file as a stand-alone License paragraph (the first `lines` lines only, when given:
# the Unicode file goes on with notices for parts of ICU that tree-sitter does not carry).
function(_pykern_license_file name file out)
  file(READ "${file}" text)
  if(ARGC GREATER 3)
    string(FIND "${text}" "${ARGV3}" cut)
    if(cut GREATER 0)
      string(SUBSTRING "${text}" 0 ${cut} text)
    endif()
  endif()
  _pykern_dep5_text("${text}" text)
  set(${out} "License: ${name}\n${text}\n" PARENT_SCOPE)
endfunction()

# The Files paragraph and the License paragraph for `path` (a Debian package's file compiled into
# pykern), read from its package's copyright file; "" when dpkg does not know the file.
function(_pykern_debian_stanza path how out license_out)
  set(${out} "" PARENT_SCOPE)
  set(${license_out} "" PARENT_SCOPE)
  execute_process(COMMAND dpkg-query -S "${path}" OUTPUT_VARIABLE owner ERROR_QUIET RESULT_VARIABLE status)
  if(NOT status EQUAL 0 OR NOT owner MATCHES "^([^:,]+)[^\n]*: ")
    message(STATUS "copyright: no Debian package owns ${path}; its notice is left out")
    return()
  endif()
  set(package "${CMAKE_MATCH_1}")
  if(NOT EXISTS "/usr/share/doc/${package}/copyright")  # a system installed without documentation
    message(WARNING "copyright: /usr/share/doc/${package}/copyright is missing; the notice for ${path} is left out")
    return()
  endif()
  file(READ "/usr/share/doc/${package}/copyright" text)
  # The paragraph for the package's own files ("Files: *"): its Copyright and License.
  if(NOT text MATCHES "\nFiles: \\*\n(([A-Za-z-]+:[^\n]*\n|[ \t][^\n]*\n)*)")
    message(WARNING "copyright: /usr/share/doc/${package}/copyright has no Files: * paragraph; ${path} is left out")
    return()
  endif()
  set(paragraph "${CMAKE_MATCH_1}")
  string(REGEX MATCH "Copyright:[^\n]*(\n[ \t][^\n]*)*" holders "${paragraph}")
  string(REGEX MATCH "License: ([^\n]*)" license "${paragraph}")
  set(name "${CMAKE_MATCH_1}")
  # Its text: the first License paragraph (or field) of that name that carries one.
  string(FIND "${text}" "\nLicense: ${name}\n " at)
  if(at EQUAL -1)
    message(WARNING "copyright: /usr/share/doc/${package}/copyright has no text for ${name}; ${path} is left out")
    return()
  endif()
  math(EXPR at "${at} + 1")
  string(SUBSTRING "${text}" ${at} -1 license_text)
  string(REGEX MATCH "^License: [^\n]*(\n[ \t][^\n]*)*" license_text "${license_text}")
  string(REGEX REPLACE "[ \t]+\n" "\n" license_text "${license_text}")
  set(${out} "Files: ${path}\n${holders}\nLicense: ${name}\nComment: ${how}; from Debian's ${package}.\n\n"
      PARENT_SCOPE)
  set(${license_out} "${license_text}\n\n" PARENT_SCOPE)
endfunction()

function(pykern_write_copyright out)
  FetchContent_GetProperties(ts_core)
  FetchContent_GetProperties(ts_python)
  set(ts_lib "${ts_core_SOURCE_DIR}/tree_sitter/core/lib")
  foreach(release ts_core ts_python)  # the versions fetched (grammars/CMakeLists.txt pins them)
    file(STRINGS "${${release}_SOURCE_DIR}/PKG-INFO" version REGEX "^Version: " LIMIT_COUNT 1)
    string(REPLACE "Version: " "" ${release}_version "${version}")
  endforeach()
  set(text "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: pykern
Upstream-Contact: ${CPACK_PACKAGE_CONTACT}
Comment: The paragraphs after the first are third-party code that pykern's binaries carry.
 Paths under _deps/ are the source releases fetched at configure time (grammars/CMakeLists.txt);
 absolute paths are the Debian packages' files the build compiled in.

Files: *
Copyright: the pykern developers
License: UNLICENSED
Comment: pykern's own files (the library, the pykern command, the headers, the CMake and
 pkg-config files).

License: UNLICENSED
 pykern's developers have not yet chosen a license for it: no right to copy, modify or
 distribute it is granted until they do.

Files: _deps/ts_core-src/tree_sitter/core/lib/*
Copyright: 2019 Max Brunsfeld, GitHub
License: MIT
Comment: The tree-sitter parsing library (from the tree-sitter ${ts_core_version} source release),
 compiled into libpykern, libpykern_tree_sitter.a and the pykern command.

Files: _deps/ts_core-src/tree_sitter/core/lib/src/unicode/*
Copyright: 2016 and later Unicode, Inc. and others
 1999-2015 International Business Machines Corporation and others
License: Unicode-DFS-2016
Comment: ICU's UTF-8 and UTF-16 macros, which the tree-sitter library carries and compiles in.

Files: _deps/ts_python-src/src/*
Copyright: 2016 Max Brunsfeld
License: MIT
Comment: The Python grammar of tree-sitter (tree-sitter-python ${ts_python_version}), compiled in as the
 tree-sitter library is.

")
  _pykern_license_file(MIT "${ts_core_SOURCE_DIR}/LICENSE" mit)
  _pykern_license_file(Unicode-DFS-2016 "${ts_lib}/src/unicode/LICENSE" unicode "\n2. Chinese/Japanese")
  string(APPEND text "${mit}\n${unicode}\n")
  file(READ "${ts_python_SOURCE_DIR}/LICENSE" python_license)
  file(READ "${ts_core_SOURCE_DIR}/LICENSE" core_license)
  string(REGEX REPLACE "Copyright[^\n]*\n" "" python_license "${python_license}")
  string(REGEX REPLACE "Copyright[^\n]*\n" "" core_license "${core_license}")
  if(NOT python_license STREQUAL core_license)
    message(FATAL_ERROR "copyright: tree-sitter-python's LICENSE is no longer the MIT text of tree-sitter's")
  endif()

  # From Debian: what is linked statically or compiled in from headers.
  get_target_property(json_include nlohmann_json::nlohmann_json INTERFACE_INCLUDE_DIRECTORIES)
  get_target_property(cli11_include CLI11::CLI11 INTERFACE_INCLUDE_DIRECTORIES)
  list(GET json_include 0 json_include)  # Debian's config names /usr/include twice
  list(GET cli11_include 0 cli11_include)
  set(debian "${XXHASH_LIBRARY}|linked into libpykern and the pykern command"
             "${BOOST_CONTEXT_LIBRARY}|linked into the pykern command"
             "${json_include}/nlohmann/json.hpp|header-only, compiled into libpykern and the pykern command"
             "${cli11_include}/CLI/CLI.hpp|header-only, compiled into the pykern command")
  if(PYKERN_PORTABLE)
    get_target_property(fmt_include fmt::fmt-header-only INTERFACE_INCLUDE_DIRECTORIES)
    list(GET fmt_include 0 fmt_include)
    list(APPEND debian "${fmt_include}/fmt/format.h|header-only, compiled into libpykern and the pykern command")
  endif()
  set(licenses MIT Unicode-DFS-2016 UNLICENSED)  # each license's text once
  foreach(entry IN LISTS debian)
    string(REPLACE "|" ";" entry "${entry}")
    list(GET entry 0 path)
    list(GET entry 1 how)
    _pykern_debian_stanza("${path}" "${how}" stanza license)
    if(NOT path MATCHES "\\.a$")  # a header: the whole folder
      get_filename_component(dir "${path}" DIRECTORY)
      string(REPLACE "Files: ${path}" "Files: ${dir}/*" stanza "${stanza}")
    endif()
    string(APPEND text "${stanza}")
    if(license MATCHES "^License: ([^\n]*)" AND NOT CMAKE_MATCH_1 IN_LIST licenses)
      list(APPEND licenses "${CMAKE_MATCH_1}")
      string(APPEND text "${license}")
    endif()
  endforeach()
  string(REGEX REPLACE "\n+$" "\n" text "${text}")
  file(WRITE "${out}" "${text}")
endfunction()
