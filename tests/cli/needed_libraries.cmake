# The pykern executable starts without the C++ runtime's or fmt's shared libraries, and so with
# few symbols for the dynamic loader to bind (CMakeLists.txt, BENCHMARKS.md issue 32): its
# NEEDED entries are C libraries only, and `pykern --version` binds at most 300 symbols (1,880
# when libstdc++.so and libfmt.so were loaded).
#   cmake -DPYKERN=<the executable> -DOBJDUMP=<objdump> -P needed_libraries.cmake
execute_process(COMMAND ${OBJDUMP} -p ${PYKERN} OUTPUT_VARIABLE headers RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "objdump -p ${PYKERN} failed")
endif()
string(REGEX MATCHALL "NEEDED +[^\n]+" needed "${headers}")
foreach(entry IN LISTS needed)
  string(REGEX REPLACE "NEEDED +" "" library "${entry}")
  if(NOT library MATCHES "^(libc|libm|ld-linux[^.]*)\\.so")
    message(FATAL_ERROR "${PYKERN} needs ${library}: only the C libraries are expected (a static C++ runtime)")
  endif()
endforeach()
message(STATUS "needed: ${needed}")

execute_process(COMMAND ${CMAKE_COMMAND} -E env LD_DEBUG=statistics ${PYKERN} --version
                OUTPUT_VARIABLE out ERROR_VARIABLE statistics RESULT_VARIABLE failed)
if(failed)
  message(FATAL_ERROR "pykern --version failed: ${statistics}")
endif()
if(NOT statistics MATCHES " number of relocations: ([0-9]+)")
  message(FATAL_ERROR "LD_DEBUG=statistics printed no relocation count: ${statistics}")
endif()
set(relocations ${CMAKE_MATCH_1})
if(relocations GREATER 300)
  message(FATAL_ERROR "pykern --version binds ${relocations} symbols at start; expected at most 300")
endif()
message(STATUS "symbols bound at start: ${relocations}")
