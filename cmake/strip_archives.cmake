# CPACK_PRE_BUILD_SCRIPTS (cmake/package.cmake): the static archives staged for a package lose
# their debug information (`strip --strip-debug`, Debian's treatment of lib*.a); the shared
# library and the command are split by CPACK_DEBIAN_DEBUGINFO_PACKAGE instead.
file(GLOB_RECURSE archives "${CPACK_TEMPORARY_DIRECTORY}/*.a")
foreach(archive IN LISTS archives)
  execute_process(COMMAND "${CPACK_STRIP_ARCHIVES_WITH}" --strip-debug "${archive}" RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "strip --strip-debug ${archive} failed")
  endif()
endforeach()
