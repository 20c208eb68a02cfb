# Precompiled headers: the standard and third-party headers nearly every file includes, parsed
# once per target instead of once per file (a fifth to a third of a library file's compile time;
# README.md, "Build and test time"). Only headers from outside this tree, so an edit never rebuilds them.
# Off by default under a compiler cache, which cannot keep files compiled with a precompiled
# header (and keeps a rebuild cheaper without): such a build checks that each file includes what
# it uses, which a precompiled header would hide.
set(pch_default ON)
if(CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache|sccache")
  set(pch_default OFF)
endif()
option(PYKERN_PCH "Precompile the standard and third-party headers most files include" ${pch_default})

set(PYKERN_PCH_COMMON <algorithm> <cstdint> <functional> <map> <memory> <optional> <set> <string>
    <string_view> <vector> <fmt/format.h>)
# Not the tests: a test file's time is its own code (the test cases' expansions and their
# optimisation), so a precompiled header (doctest, nlohmann-json) saved none of it.

# The library's layers share one precompiled header (their flags are the same): the first layer
# makes it, the others reuse it.
function(pykern_precompile_layer target)
  if(NOT PYKERN_PCH)
    return()
  endif()
  get_property(first GLOBAL PROPERTY PYKERN_PCH_LAYER)
  if(first)
    target_precompile_headers(${target} REUSE_FROM ${first})
  else()
    target_precompile_headers(${target} PRIVATE ${PYKERN_PCH_COMMON})
    set_property(GLOBAL PROPERTY PYKERN_PCH_LAYER ${target})
  endif()
endfunction()

# A program's own (the CLI): HEADERS names a list above, or REUSE a target with the same flags
# whose header to take.
function(pykern_precompile target)
  cmake_parse_arguments(PCH "" "HEADERS;REUSE" "" ${ARGN})
  if(NOT PYKERN_PCH)
    return()
  elseif(PCH_REUSE)
    target_precompile_headers(${target} REUSE_FROM ${PCH_REUSE})
  else()
    target_precompile_headers(${target} PRIVATE ${PYKERN_PCH_${PCH_HEADERS}})
  endif()
endfunction()
