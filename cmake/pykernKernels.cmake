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
# A misspelt keyword is refused at configure, with the keyword meant.
# At build time `pykern bundle` writes the header into the build tree (again whenever the kernel
# file or pykern changes), with the kernel cache in ${CMAKE_BINARY_DIR}/pykern-cache. The
# program runs the kernels with neither NVRTC nor the .py file (pykern/bundle.h).
function(pykern_add_kernels target file)
  set(options NO_PTX NO_SIMULATOR DEBUG)
  set(one_value NAMESPACE HEADER)
  set(lists SIGNATURES KERNELS ARCHS)
  cmake_parse_arguments(PARSE_ARGV 2 PK "${options}" "${one_value}" "${lists}")
  _pykern_check_kernel_arguments("${options};${one_value};${lists}")
  if(NOT TARGET ${target})
    message(FATAL_ERROR "pykern_add_kernels: '${target}' is not a target")
  endif()
  if(TARGET pykern::cli)
    set(pykern_cli pykern::cli)
  elseif(TARGET pykern)  # pykern's own build tree
    set(pykern_cli pykern)
  else()
    message(FATAL_ERROR "pykern_add_kernels: no pykern command; call find_package(pykern) first, "
                        "with the command installed (Debian: the pykern package)")
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

# Misspelt keywords fail at configure, naming the word and the keyword meant. A word after a
# list keyword is taken as one more value (SIGNATURES "..." ARCH 80 would hand "ARCH" to
# `pykern bundle` as a signature), so the lists are searched too: an upper-case word is no
# signature or architecture (Numba's types and sm_80 are lower case; NONE is ARCHS' own), nor a
# keyword in any case; a kernel may be named in upper case unless it is a keyword's near miss.
macro(_pykern_check_kernel_arguments keywords)
  set(_pk_keywords "${keywords}")
  foreach(_pk_keyword IN LISTS PK_KEYWORDS_MISSING_VALUES)
    message(FATAL_ERROR "pykern_add_kernels: ${_pk_keyword} is given no value")
  endforeach()
  if(PK_UNPARSED_ARGUMENTS)
    list(GET PK_UNPARSED_ARGUMENTS 0 _pk_word)
    _pykern_keyword_hint("${_pk_word}" "${keywords}" _pk_nearest _pk_hint)
    message(FATAL_ERROR "pykern_add_kernels: '${_pk_word}' is no keyword and follows no keyword that takes "
                        "values; ${_pk_hint}")
  endif()
  foreach(_pk_list SIGNATURES ARCHS KERNELS)
    foreach(_pk_word IN LISTS PK_${_pk_list})
      string(TOUPPER "${_pk_word}" _pk_upper)
      if(NOT _pk_word MATCHES "^[A-Z][A-Z0-9_]*$" AND NOT _pk_upper IN_LIST _pk_keywords)
        continue()
      endif()
      _pykern_keyword_hint("${_pk_word}" "${keywords}" _pk_nearest _pk_hint)
      if((_pk_list STREQUAL "ARCHS" AND _pk_word STREQUAL "NONE") OR (_pk_list STREQUAL "KERNELS" AND NOT _pk_nearest))
        continue()
      endif()
      message(FATAL_ERROR "pykern_add_kernels: '${_pk_word}' is no keyword, so it would be one more value of "
                          "${_pk_list}; ${_pk_hint}")
    endforeach()
  endforeach()
endmacro()

# The keyword `word` is a near miss of, and what to tell the caller.
function(_pykern_keyword_hint word keywords nearest_out hint_out)
  _pykern_nearest_keyword("${word}" "${keywords}" nearest)
  if(nearest)
    set(hint "did you mean ${nearest}?")
  else()
    list(JOIN keywords ", " known)
    set(hint "the keywords are ${known}")
  endif()
  set(${nearest_out} "${nearest}" PARENT_SCOPE)
  set(${hint_out} "${hint}" PARENT_SCOPE)
endfunction()

# The keyword within two edits of `word` (letter case aside), or "" when none is.
function(_pykern_nearest_keyword word keywords out)
  string(TOUPPER "${word}" word)
  set(best "")
  set(best_distance 3)
  foreach(keyword IN LISTS keywords)
    _pykern_edit_distance("${word}" "${keyword}" distance)
    if(distance LESS best_distance)
      set(best "${keyword}")
      set(best_distance ${distance})
    endif()
  endforeach()
  set(${out} "${best}" PARENT_SCOPE)
endfunction()

# Levenshtein distance, one row at a time.
function(_pykern_edit_distance a b out)
  string(LENGTH "${a}" la)
  string(LENGTH "${b}" lb)
  set(row "")
  foreach(j RANGE ${lb})
    list(APPEND row ${j})
  endforeach()
  if(la GREATER 0)
    foreach(i RANGE 1 ${la})
      math(EXPR ai "${i} - 1")
      string(SUBSTRING "${a}" ${ai} 1 ca)
      set(next ${i})
      if(lb GREATER 0)
        foreach(j RANGE 1 ${lb})
          math(EXPR bj "${j} - 1")
          string(SUBSTRING "${b}" ${bj} 1 cb)
          list(GET row ${bj} diagonal)
          list(GET row ${j} above)
          list(GET next ${bj} left)
          if(ca STREQUAL cb)
            set(cost ${diagonal})
          else()
            math(EXPR cost "${diagonal} + 1")
          endif()
          math(EXPR above "${above} + 1")
          math(EXPR left "${left} + 1")
          foreach(candidate ${above} ${left})
            if(candidate LESS cost)
              set(cost ${candidate})
            endif()
          endforeach()
          list(APPEND next ${cost})
        endforeach()
      endif()
      set(row ${next})
    endforeach()
  endif()
  list(GET row ${lb} distance)
  set(${out} ${distance} PARENT_SCOPE)
endfunction()
