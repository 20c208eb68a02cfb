# pykern_add_kernels: kernels compiled ahead of time into a header that a target includes.
#
#   pykern_add_kernels(app kernels.py
#     SIGNATURES "add=void(float32[::1], float32[::1], float32[::1])" ...
#     [KERNELS add ...]           # only these; default: every kernel with a signature
#     [ARCHS 80 90 | NONE]        # cubins for these GPUs, plus PTX for newer ones; NONE: the
#                                 # simulator only. Default: CMAKE_CUDA_ARCHITECTURES when it
#                                 # lists numbers, else the build machine's GPU, else 90.
#     [NAMESPACE kernels]         # of the launch functions; default: the file's stem
#     [HEADER kernels_bundle.h]   # what `app` includes; default: <stem>_bundle.h
#     [NO_PTX] [NO_SIMULATOR] [DEBUG])   # NO_SIMULATOR when cross-compiling
#
# At build time `pykern bundle` writes the header into the build tree (again whenever the kernel
# file or pykern changes), with the kernel cache in ${CMAKE_BINARY_DIR}/pykern-cache. The
# program runs the kernels with neither NVRTC nor the .py file (pykern/bundle.h).
function(pykern_add_kernels target file)
  cmake_parse_arguments(PARSE_ARGV 2 PK "NO_PTX;NO_SIMULATOR;DEBUG" "NAMESPACE;HEADER" "SIGNATURES;KERNELS;ARCHS")
  if(PK_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "pykern_add_kernels: unknown arguments: ${PK_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pykern_add_kernels: '${target}' is not a target")
  endif()
  if(TARGET pykern::cli)
    set(pykern_cli pykern::cli)
  elseif(TARGET pykern)  # pykern's own build tree
    set(pykern_cli pykern)
  else()
    message(FATAL_ERROR "pykern_add_kernels: no pykern command; call find_package(pykern) first")
  endif()

  get_filename_component(source "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  get_filename_component(stem "${file}" NAME_WE)
  if(NOT PK_HEADER)
    set(PK_HEADER "${stem}_bundle.h")
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/pykern_bundles/${target}")
  set(header "${dir}/${PK_HEADER}")

  set(arguments "${source}" -o "${header}" --cache-dir "${CMAKE_BINARY_DIR}/pykern-cache")
  foreach(signature IN LISTS PK_SIGNATURES)
    list(APPEND arguments --sig "${signature}")
  endforeach()
  foreach(kernel IN LISTS PK_KERNELS)
    list(APPEND arguments --kernel "${kernel}")
  endforeach()
  # A cross-compiled program cannot load this machine's simulator build: leave it out.
  if(CMAKE_CROSSCOMPILING AND NOT PK_NO_SIMULATOR)
    set(PK_NO_SIMULATOR TRUE)
  endif()
  if(NOT PK_ARCHS AND DEFINED CMAKE_CUDA_ARCHITECTURES AND CMAKE_CUDA_ARCHITECTURES MATCHES "^[0-9]+[a-z]?(-real|-virtual)?(;[0-9]+[a-z]?(-real|-virtual)?)*$")
    set(PK_ARCHS ${CMAKE_CUDA_ARCHITECTURES})
  endif()
  if(PK_ARCHS STREQUAL "NONE")
    list(APPEND arguments --arch none)
  elseif(PK_ARCHS)
    set(archs "")
    foreach(arch IN LISTS PK_ARCHS)
      string(REGEX REPLACE "-(real|virtual)$" "" arch "${arch}")  # CMake's 90-real: the cubin either way
      if(NOT arch MATCHES "^sm_")
        set(arch "sm_${arch}")
      endif()
      list(APPEND archs "${arch}")
    endforeach()
    list(REMOVE_DUPLICATES archs)
    list(JOIN archs "," archs)
    list(APPEND arguments --arch "${archs}")
  endif()
  if(PK_NAMESPACE)
    list(APPEND arguments --namespace "${PK_NAMESPACE}")
  endif()
  foreach(flag NO_PTX NO_SIMULATOR DEBUG)
    if(PK_${flag})
      string(TOLOWER "${flag}" option)
      string(REPLACE "_" "-" option "${option}")
      list(APPEND arguments "--${option}")
    endif()
  endforeach()

  add_custom_command(OUTPUT "${header}"
                     COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
                     COMMAND ${pykern_cli} bundle ${arguments}
                     DEPENDS "${source}" ${pykern_cli}
                     COMMENT "pykern bundle ${file} -> ${PK_HEADER}"
                     VERBATIM)
  target_sources(${target} PRIVATE "${header}")
  target_include_directories(${target} PRIVATE "${dir}")
endfunction()
