# `cmake --install build --prefix DIR`: the CLI, the static library (with the tree-sitter
# library it needs) and the shared one, the public headers, the runtime headers (for reading: the library embeds
# them), a CMake package (find_package(pykern 0.2) → pykern::pykern, static, or
# pykern::pykern_shared, pykern::cli, pykern_add_kernels()), a pkg-config file and the copyright
# file. Each file belongs to the component of the .deb that holds it (cmake/package.cmake): lib
# (the shared library), cli (the command) and dev (the rest). Libraries go to CMAKE_INSTALL_LIBDIR,
# lib/<multiarch> on Debian (CMakeLists.txt), under any prefix.
# tests/consumer builds a project against the installed tree and the .debs (ctest: consumer).
include(CMakePackageConfigHelpers)
set(PYKERN_LIB_PACKAGE libpykern${PROJECT_VERSION_MAJOR}.${PROJECT_VERSION_MINOR})  # Debian: lib<name><soversion>
set(PYKERN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/pykern)

# The CLI is exported too (pykern::cli, for pykern_add_kernels), from its own file that its
# package holds: the CMake package works without it, and pykern_add_kernels says what to install.
set_target_properties(pykern PROPERTIES EXPORT_NAME cli)
install(TARGETS pykern EXPORT pykernCliTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT cli)
install(EXPORT pykernCliTargets NAMESPACE pykern:: DESTINATION ${PYKERN_CMAKE_DIR} COMPONENT cli)
install(TARGETS pykern_shared EXPORT pykernTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT lib NAMELINK_COMPONENT dev)
install(TARGETS pykern_core pykern_tree_sitter EXPORT pykernTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT dev)
install(DIRECTORY include/pykern DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
# Read by people, not by the library (it embeds them): the -dev package's.
install(DIRECTORY runtime/pykern DESTINATION ${CMAKE_INSTALL_DATADIR}/pykern/runtime COMPONENT dev)

install(EXPORT pykernTargets NAMESPACE pykern:: DESTINATION ${PYKERN_CMAKE_DIR} COMPONENT dev)
configure_package_config_file(${CMAKE_CURRENT_LIST_DIR}/pykernConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/pykernConfig.cmake
                              INSTALL_DESTINATION ${PYKERN_CMAKE_DIR})
# 0.x releases change the API: a project asking for 0.2 gets 0.2.y only.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/pykernConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pykernConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/pykernConfigVersion.cmake
              ${CMAKE_CURRENT_LIST_DIR}/pykernKernels.cmake
        DESTINATION ${PYKERN_CMAKE_DIR} COMPONENT dev)

# pkg-config: -lpykern (the shared library where the linker finds it, else the static one);
# `--static` adds what the static one links (Debian's libraries, as found here).
set(PYKERN_PC_PRIVATE_LIBS "-lpykern_tree_sitter ${XXHASH_LIBRARY} ${BOOST_CONTEXT_LIBRARY}")
if(NOT PYKERN_PORTABLE)
  string(APPEND PYKERN_PC_PRIVATE_LIBS " -lfmt")
endif()
if(CMAKE_DL_LIBS)
  string(APPEND PYKERN_PC_PRIVATE_LIBS " -l${CMAKE_DL_LIBS}")
endif()
string(APPEND PYKERN_PC_PRIVATE_LIBS " -pthread")
# The .pc file names its prefix relative to itself ("../../.." from lib/<multiarch>/pkgconfig), so an installed
# tree can move (cmake --install --prefix, a .deb).
string(REGEX REPLACE "[^/]+" ".." PYKERN_PC_UP "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
configure_file(${CMAKE_CURRENT_LIST_DIR}/pykern.pc.in ${CMAKE_CURRENT_BINARY_DIR}/pykern.pc @ONLY)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/pykern.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT dev)

include(${CMAKE_CURRENT_LIST_DIR}/package.cmake)
