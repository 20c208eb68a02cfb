# `cpack` in the build directory: Debian packages of the install tree under /usr, split the
# Debian way by install component (cmake/install.cmake):
#   libpykern0.2   the shared library (lib/<multiarch>/libpykern.so.0.2*)
#   pykern         the command (statically linked, so it needs no libpykern at run time)
#   libpykern-dev  headers, the static libraries, the .so link, CMake and pkg-config files
# The binaries are stripped, their debug information going into -dbgsym .ddeb packages. Run-time
# Depends come from dpkg-shlibdeps (dpkg-dev); the -dev package names the -dev packages its
# headers include and its static library links. Each package carries a DEP-5 copyright file.
# `cpack -D CPACK_DEBIAN_DEBUGINFO_PACKAGE=OFF` skips the .ddebs (and then strips nothing).
include(${CMAKE_CURRENT_LIST_DIR}/copyright.cmake)

set(CPACK_PACKAGE_NAME pykern)
set(CPACK_PACKAGE_VENDOR "pykern")
# The address the project's commits are made under (git log); a release may name another.
set(PYKERN_PACKAGE_CONTACT "pykern maintainers <maintainers@users.noreply.a-seed-81ce09e9.example>"
    CACHE STRING "The packages' Maintainer: Name <address>")
set(CPACK_PACKAGE_CONTACT "${PYKERN_PACKAGE_CONTACT}")
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${CPACK_PACKAGE_CONTACT}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL lib cli dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_DEBUGINFO_PACKAGE ON)
# A package's directories are root's and 0755 whatever the build tree's umask.
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                                WORLD_READ WORLD_EXECUTE)

# Debian's description: a synopsis, then what the package is for and what it holds.
set(PYKERN_ABOUT "pykern runs Numba-CUDA kernels, written in Python, from C++ programs:
it translates them to CUDA C++, compiles them with NVRTC (loaded at run time,
from the CUDA Toolkit) and launches them on a GPU or on its CPU simulator
(which builds kernels with the host C++ compiler). Kernels can also be
compiled ahead of time into a C++ header, for programs that ship without
NVRTC or the Python source. It is meant for C++ developers who keep their
kernels in Numba's Python dialect.")

set(CPACK_DEBIAN_LIB_PACKAGE_NAME ${PYKERN_LIB_PACKAGE})
set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)  # the shlibs file, for the one package with a library
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY "=")  # 0.x: each release its own ABI
# ldconfig runs by trigger (CPack adds a postinst calling it too: lintian warns, nothing breaks).
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/deb-lib/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${CMAKE_CURRENT_BINARY_DIR}/deb-lib/triggers)
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_LIB_PACKAGE_RECOMMENDS "g++")  # the CPU simulator compiles kernels with it
set(CPACK_DEBIAN_LIB_DESCRIPTION "Numba-CUDA kernels from C++ - shared library
${PYKERN_ABOUT}

This package holds the shared library.")

set(CPACK_DEBIAN_CLI_PACKAGE_NAME pykern)
set(CPACK_DEBIAN_CLI_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_CLI_PACKAGE_RECOMMENDS "g++")
set(CPACK_DEBIAN_CLI_DESCRIPTION "Numba-CUDA kernels from C++ - command-line tool
${PYKERN_ABOUT}

This package holds the pykern command: it checks and compiles kernel files
(to CUDA C++, PTX or cubins), runs kernels, writes ahead-of-time bundles
and manages the kernel cache.")

# The public headers include dlpack/dlpack.h; the static library links fmt, xxhash and
# Boost.Context, and pykernConfig.cmake finds fmt.
set(CPACK_COMPONENT_DEV_DEPENDS lib)
set(CPACK_DEBIAN_ENABLE_COMPONENT_DEPENDS ON)  # libpykern-dev: Depends libpykern0.2 (= version)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME libpykern-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libdlpack-dev, libfmt-dev, libxxhash-dev, libboost-context-dev")
set(CPACK_DEBIAN_DEV_PACKAGE_RECOMMENDS "pykern (= ${PROJECT_VERSION}), pkg-config")  # pykern_add_kernels runs it
set(CPACK_DEBIAN_DEV_DESCRIPTION "Numba-CUDA kernels from C++ - development files
${PYKERN_ABOUT}

This package holds the headers, the static library, the CMake package
(find_package(pykern), pykern_add_kernels) and the pkg-config file.")

# share/doc/<package>/: the copyright file and a changelog (a native package's, pointing to
# the git history; its trailer, like Maintainer, wants PYKERN_PACKAGE_CONTACT to hold an
# address) in each package.
pykern_write_copyright(${CMAKE_CURRENT_BINARY_DIR}/copyright)
string(TIMESTAMP PYKERN_CHANGELOG_DATE "%a, %d %b %Y %H:%M:%S +0000" UTC)  # honours SOURCE_DATE_EPOCH
file(WRITE ${CMAKE_CURRENT_BINARY_DIR}/deb-doc/changelog
     "pykern (${PROJECT_VERSION}) unstable; urgency=medium\n\n"
     "  * pykern ${PROJECT_VERSION}; the source tree's git history records the changes.\n\n"
     " -- ${CPACK_PACKAGE_CONTACT}  ${PYKERN_CHANGELOG_DATE}\n")
execute_process(COMMAND gzip -9nc ${CMAKE_CURRENT_BINARY_DIR}/deb-doc/changelog  # -n: no timestamp inside
                OUTPUT_FILE ${CMAKE_CURRENT_BINARY_DIR}/deb-doc/changelog.gz COMMAND_ERROR_IS_FATAL ANY)
set(PYKERN_PACKAGES ${PYKERN_LIB_PACKAGE} pykern libpykern-dev)
foreach(component package IN ZIP_LISTS CPACK_COMPONENTS_ALL PYKERN_PACKAGES)
  install(FILES ${CMAKE_CURRENT_BINARY_DIR}/copyright ${CMAKE_CURRENT_BINARY_DIR}/deb-doc/changelog.gz
          DESTINATION ${CMAKE_INSTALL_DATADIR}/doc/${package} COMPONENT ${component})
endforeach()

# Static archives keep their debug information in a plain install; in a package they lose it
# (Debian's way: no -dbgsym for archives), which takes libpykern.a from about 200 MB to 7 MB.
set(CPACK_PRE_BUILD_SCRIPTS ${CMAKE_CURRENT_LIST_DIR}/strip_archives.cmake)
set(CPACK_STRIP_ARCHIVES_WITH "${CMAKE_STRIP}")
include(CPack)
