# sources_hash() is made from the library's sources at build time (cmake/source_identity.cmake):
# the same files give the same hash, and a changed byte or a renamed file another one.
#   cmake -DSCRIPT=<source_identity.cmake> -DWORK=<scratch folder> -P sources_hash.cmake
function(hash_of out name text)
  file(REMOVE_RECURSE ${WORK}/root)
  file(WRITE ${WORK}/root/src/${name} "${text}")
  file(WRITE ${WORK}/root/include/api.h "// api\n")
  execute_process(COMMAND ${CMAKE_COMMAND} -DOUT=${WORK}/identity.cpp "-DFILES=include/api.h|src/${name}"
                          -DROOT=${WORK}/root -P ${SCRIPT} RESULT_VARIABLE failed)
  file(READ ${WORK}/identity.cpp source)
  if(failed OR NOT source MATCHES "sources_hash\\(\\) { return \"([0-9a-f]+)\"; }")
    message(FATAL_ERROR "no sources_hash() in ${WORK}/identity.cpp")
  endif()
  set(${out} ${CMAKE_MATCH_1} PARENT_SCOPE)
endfunction()
hash_of(first emit.cpp "int a = 1;\n")
hash_of(again emit.cpp "int a = 1;\n")
hash_of(byte emit.cpp "int a = 2;\n")
hash_of(name sema.cpp "int a = 1;\n")
string(LENGTH "${first}" length)
if(NOT length EQUAL 16 OR NOT first STREQUAL again OR first STREQUAL byte OR first STREQUAL name OR byte STREQUAL name)
  message(FATAL_ERROR "hashes: first ${first}, again ${again}, a byte changed ${byte}, a name changed ${name}")
endif()
message(STATUS "sources hash: ${first}, ${byte}, ${name}")
