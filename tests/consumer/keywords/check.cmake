# Configures the keywords project with -DCASE=${CASE} in ${WORK} and checks the outcome:
#   cmake -DCASE=NAME -DWORK=DIR [-DEXPECT=text] -P check.cmake
# With EXPECT, the configure must fail and say EXPECT (CMake's line wrapping undone); without,
# it must succeed.
file(REMOVE_RECURSE "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${CMAKE_CURRENT_LIST_DIR}" -B "${WORK}" "-DCASE=${CASE}"
                RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(REGEX REPLACE "[ \n]+" " " said "${out}${err}")
if(NOT DEFINED EXPECT)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "case ${CASE} should configure, but: ${said}")
  endif()
elseif(status EQUAL 0)
  message(FATAL_ERROR "case ${CASE} configured; expected a failure saying: ${EXPECT}")
else()
  string(FIND "${said}" "${EXPECT}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "case ${CASE} failed without saying \"${EXPECT}\": ${said}")
  endif()
endif()
file(REMOVE_RECURSE "${WORK}")
