# `cmake --install build --prefix DIR`: the CLI, the static library (with the tree-sitter
# library it needs) and the shared one, the public headers, the runtime headers (for reading: the library embeds
# them), a CMake package (find_package(pykern 0.2) → pykern::pykern, static, or
# pykern::pykern_shared, pykern::cli, pykern_add_kernels()) and a pkg-config file.
# tests/consumer builds a project against the installed tree (ctest: consumer).
include(CMakePackageConfigHelpers)

# The CLI is exported too (pykern::cli), for pykern_add_kernels.
set_target_properties(pykern PROPERTIES EXPORT_NAME cli)
install(TARGETS pykern EXPORT pykernTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS pykern_core pykern_shared pykern_tree_sitter EXPORT pykernTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY include/pykern DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY runtime/pykern DESTINATION ${CMAKE_INSTALL_DATADIR}/pykern/runtime)

set(PYKERN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pykern)
install(EXPORT pykernTargets NAMESPACE pykern:: DESTINATION ${PYKERN_CMAKE_DIR})
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pykernConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/pykernConfig.cmake
                              INSTALL_DESTINATION ${PYKERN_CMAKE_DIR})
# 0.x releases change the API: a project asking for 0.2 gets 0.2.y only.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/pykernConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pykernConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/pykernConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/pykernKernels.cmake
        DESTINATION ${PYKERN_CMAKE_DIR})

# pkg-config: -lpykern (the shared library where the linker finds it, else the static one) and
# what the static one links (Debian's libraries, as found here).
set(PYKERN_PC_PRIVATE_LIBS "${XXHASH_LIBRARY} ${BOOST_CONTEXT_LIBRARY} ${CMAKE_DL_LIBS} -pthread")
if(CMAKE_DL_LIBS)
  set(PYKERN_PC_PRIVATE_LIBS "${XXHASH_LIBRARY} ${BOOST_CONTEXT_LIBRARY} -l${CMAKE_DL_LIBS} -pthread")
endif()
# The .pc file names its prefix relative to itself ("../.." from lib/pkgconfig), so an installed
# tree can move (cmake --install --prefix, a .deb).
string(REGEX REPLACE "[^/]+" ".." PYKERN_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${CMAKE_CURRENT_LIST_DIR}/pykern.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pykern.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pykern.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# `cpack -G DEB` in the build directory: a .deb of the same install tree (under /usr), which
# depends on the Debian libraries the build used.
set(CPACK_PACKAGE_NAME pykern)
set(CPACK_PACKAGE_VENDOR "pykern")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Numba-CUDA kernels from C++: translation, NVRTC, the CPU simulator")
set(CPACK_PACKAGE_CONTACT "pykern developers")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libfmt-dev, nlohmann-json3-dev, libxxhash-dev, libboost-context-dev, libdlpack-dev, g++")
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
