# runtime_headers_hash() is made when the headers are embedded (cmake/embed_runtime.cmake): the
# same headers give the same hash, and a changed byte or name another one.
#   cmake -DSCRIPT=<embed_runtime.cmake> -DWORK=<scratch folder> -P runtime_hash.cmake
function(hash_of out name text)
  file(REMOVE_RECURSE ${WORK}/root)
  file(WRITE ${WORK}/root/pykern/${name} "${text}")
  file(WRITE ${WORK}/root/pykern/core.cuh "// core\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -DOUT=${WORK}/embedded.cpp "-DHEADERS=pykern/core.cuh|pykern/${name}"
                          -DROOT=${WORK}/root -P ${SCRIPT} RESULT_VARIABLE failed)
  file(READ ${WORK}/embedded.cpp source)
  if(failed OR NOT source MATCHES "runtime_headers_hash\\(\\) { return \"([0-9a-f]+)\"; }")
    message(FATAL_ERROR "no runtime_headers_hash() in ${WORK}/embedded.cpp")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
hash_of(first a.cuh "int a = 1;\n")
hash_of(again a.cuh "int a = 1;\n")
hash_of(byte a.cuh "int a = 2;\n")
hash_of(name b.cuh "int a = 1;\n")
string(LENGTH "${first}" length)
if(NOT length EQUAL 16 OR NOT first STREQUAL again OR first STREQUAL byte OR first STREQUAL name OR byte STREQUAL name)
  message(FATAL_ERROR "hashes: first ${first}, again ${again}, a byte changed ${byte}, a name changed ${name}")
endif()
message(STATUS "runtime headers hash: ${first}, ${byte}, ${name}")
