# The library's layers: one object library per folder of src/, lowest first, each with the
# folders it may include from. A lower layer never includes a higher one: what the launcher
# needs, the API hands it. The declarations are checked on every build (check_layers.cmake):
# an #include that climbs, or reaches a folder not declared, fails the build and names the line.
#
# Public headers (include/pykern) are of two kinds: value types every layer may use (results,
# dtypes, arrays, scalars, launches, compiler outputs, the runtime's .cuh files), and the API's
# classes (modules, devices, functions, ufuncs, random, bundles), which only the API and the CLI
# (and, for bundle.h, the bundle writer) include.
set(PYKERN_API_HEADERS module.h device.h function.h ufunc.h random.h bundle.h value.h)
set(PYKERN_LAYER_TABLE "")

# pykern_layer(NAME [USES lower...] [API_HEADERS ...] [SOURCES files...] [NO_LIBRARY])
function(pykern_layer name)
  cmake_parse_arguments(LAYER "NO_LIBRARY" "" "USES;SOURCES;API_HEADERS" ${ARGN})
  string(REPLACE ";" "," uses "${LAYER_USES}")
  string(REPLACE ";" "," api "${LAYER_API_HEADERS}")
  set(PYKERN_LAYER_TABLE "${PYKERN_LAYER_TABLE}${name}:${uses}:${api};" PARENT_SCOPE)
  if(LAYER_NO_LIBRARY)
    return()
  endif()
  add_library(pykern_${name} OBJECT ${LAYER_SOURCES})
  set_target_properties(pykern_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
  target_include_directories(pykern_${name} PRIVATE include src runtime ${XXHASH_INCLUDE_DIR})
  target_include_directories(pykern_${name} SYSTEM PRIVATE ${NVRTC_INCLUDE_DIR} ${DLPACK_INCLUDE_DIR})
  target_compile_definitions(pykern_${name} PRIVATE PYKERN_VERSION="${PROJECT_VERSION}")
  target_compile_options(pykern_${name} PRIVATE -Wall -Wextra -Wno-unused-parameter)
  target_link_libraries(pykern_${name} PRIVATE pykern_tree_sitter ${PYKERN_FMT} nlohmann_json::nlohmann_json)
  # The declared dependencies, as the build graph states them (no build-order edge: object
  # libraries compile independently).
  foreach(use IN LISTS LAYER_USES)
    target_link_libraries(pykern_${name} INTERFACE pykern_${use})
  endforeach()
  add_dependencies(pykern_${name} pykern_layers_checked)
  pykern_precompile_layer(pykern_${name})
  set_property(GLOBAL APPEND PROPERTY PYKERN_LAYER_OBJECTS $<TARGET_OBJECTS:pykern_${name}>)
endfunction()

# The check, run before any layer compiles and again whenever a source changes.
function(pykern_check_layers)
  file(GLOB_RECURSE sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*)
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layers.checked)
  add_custom_command(
    OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DSRC=${CMAKE_CURRENT_SOURCE_DIR}/src "-DTABLE=${PYKERN_LAYER_TABLE}"
            "-DAPI_HEADERS=${PYKERN_API_HEADERS}" -P ${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_layers.cmake
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${sources} ${CMAKE_CURRENT_SOURCE_DIR}/cmake/check_layers.cmake ${CMAKE_CURRENT_SOURCE_DIR}/cmake/layers.cmake
            ${CMAKE_CURRENT_SOURCE_DIR}/CMakeLists.txt
    COMMENT "Checking that no layer includes a higher one"
    VERBATIM)
  add_custom_target(pykern_layers_checked DEPENDS ${stamp})
endfunction()
