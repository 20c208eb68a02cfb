#!/bin/sh
# ctest `consumer`: installs pykern from BUILD into a fresh prefix, then builds tests/consumer
# against it twice (the CMake package, and pkg-config) and runs both programs; builds and runs
# `bundled`, whose kernels pykern_add_kernels (and, for pkg-config, `pykern bundle`) compiled, where neither NVRTC nor
# kernels.py can be found; checks that wrong argument types do not compile; then makes the
# Debian packages (cpack), checks what each holds, its size and its control fields, unpacks them
# into a scratch root (dpkg -x, no root needed) and builds and runs the consumer against that
# tree with CMake and with pkg-config.
#   tests/consumer/run.sh BUILD_DIR WORK_DIR   (PYKERN_KEEP_CONSUMER=1 keeps WORK_DIR to look at)
set -eu
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
# lib/<multiarch> on Debian (CMakeLists.txt), whatever the prefix.
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
"$work/prefix/bin/pykern" --version
saxpy_f4='saxpy=void(float32, float32[::1], float32[::1], float32[::1])'
archs="80;90"
if ! "$work/prefix/bin/pykern" compile "$here/kernels.py" --sig "$saxpy_f4" --emit ptx --no-cache -o "$work/probe.ptx" \
     > /dev/null 2>&1; then
  archs=NONE
  echo "consumer: NVRTC cannot be loaded here; the bundle holds the simulator's build only"
fi
cmake -S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" "-DPYKERN_BUNDLE_ARCHS=$archs" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/consumer" "$here/kernels.py"
# The bundle at run time: an empty folder, no NVRTC, a kernel cache that nothing may write.
mkdir "$work/elsewhere" "$work/empty-cache"
(cd "$work/elsewhere" && PYKERN_NVRTC=/nonexistent PYKERN_CACHE_DIR="$work/empty-cache" "$work/build/bundled")
[ -z "$(ls -A "$work/empty-cache")" ] || { echo "the bundled program wrote to the kernel cache" >&2; exit 1; }
if [ "$archs" != NONE ]; then
  grep -q '"sm_80"' "$work/build/pykern_bundles/bundled/kernels_bundle.h" &&
    grep -q '"compute_90"' "$work/build/pykern_bundles/bundled/kernels_bundle.h" ||
    { echo "the bundle lacks its sm_80 cubin or its compute_90 PTX" >&2; exit 1; }
fi
# Arguments of the wrong C++ types are a compile error that names the launch function.
if cmake --build "$work/build" --target wrong_types > "$work/wrong_types.log" 2>&1; then
  echo "saxpy with int32 arrays compiled; the bundle's launch functions are not typed" >&2
  exit 1
fi
grep -q "saxpy" "$work/wrong_types.log" || { cat "$work/wrong_types.log" >&2; exit 1; }
# The shared library: the program finds it through the RPATH CMake gives it.
cmake -S "$here" -B "$work/build-shared" -DCMAKE_PREFIX_PATH="$work/prefix" -DPYKERN_TARGET=pykern::pykern_shared "-DPYKERN_BUNDLE_ARCHS=$archs" \
  > "$work/configure-shared.log"
cmake --build "$work/build-shared" > "$work/build-shared.log"
ldd "$work/build-shared/consumer" | grep -q "libpykern.so" || { echo "the shared consumer does not use libpykern.so" >&2; exit 1; }
"$work/build-shared/consumer" "$here/kernels.py"
(cd "$work/elsewhere" && PYKERN_NVRTC=/nonexistent "$work/build-shared/bundled")
# 0.x: asking for another minor version finds nothing.
if cmake -S "$here" -B "$work/build-0.3" -DCMAKE_PREFIX_PATH="$work/prefix" -DPYKERN_WANT=0.3 > "$work/0.3.log" 2>&1; then
  echo "find_package(pykern 0.3) accepted pykern $(grep -m1 PACKAGE_VERSION "$work/prefix/$libdir/cmake/pykern/pykernConfigVersion.cmake")" >&2
  exit 1
fi
# pkg-config, as a Makefile project would use it.
PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig" pkg-config --modversion pykern
# Cflags name no -std (main.cpp uses std::span, so it asks for C++20 itself); the program starts
# without LD_LIBRARY_PATH, and the bundle's program below builds as C++17.
if PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig" pkg-config --cflags pykern | grep -q -- '-std='; then
  echo "pykern.pc's Cflags choose the C++ standard" >&2
  exit 1
fi
c++ -std=c++20 -O1 "$here/main.cpp" -o "$work/consumer-pc" $(PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig" pkg-config --cflags --libs pykern)
env -u LD_LIBRARY_PATH "$work/consumer-pc" "$here/kernels.py"
# A bundle made with the CLI, for a build without CMake.
mkdir "$work/pc-bundle"
arch_list=$(echo "$archs" | sed 's/NONE/none/; s/\([0-9][0-9]*\)/sm_\1/g; s/;/,/g')
"$work/prefix/bin/pykern" bundle "$here/kernels.py" --arch "$arch_list" --cache-dir "$work/pc-bundle/cache" \
  --sig "$saxpy_f4" --sig 'saxpy=void(float64, float64[:], float64[:], float64[:])' \
  --sig 'scale_rows=void(int32[:, ::1], int32[::1])' -o "$work/pc-bundle/kernels_bundle.h" 2> "$work/pc-bundle.log"
c++ -std=c++17 -O1 -I "$work/pc-bundle" "$here/bundled.cpp" -o "$work/bundled-pc" \
  $(PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig" pkg-config --cflags --libs pykern)
(cd "$work/elsewhere" && env -u LD_LIBRARY_PATH PYKERN_NVRTC=/nonexistent "$work/bundled-pc")
# The installed CMake package asks for what the public headers and the exported link interface
# need, no more: not nlohmann-json, and not /usr/include (which would come before a program's own).
if grep -q "find_dependency(nlohmann" "$work/prefix/$libdir/cmake/pykern/pykernConfig.cmake" ||
   grep -q '[";]/usr/include[";]' "$work/prefix/$libdir/cmake/pykern/pykernTargets.cmake"; then
  echo "pykern's CMake package requires nlohmann-json or exports /usr/include" >&2
  exit 1
fi
# The .debs (about 40 s): the library, the command, the -dev package, and the -dbgsym .ddebs.
cpack --config "$build/CPackConfig.cmake" -B "$work/deb" > "$work/cpack.log"
version=$(PKG_CONFIG_PATH="$work/prefix/$libdir/pkgconfig" pkg-config --modversion pykern)
soversion=${version%.*}
lib_deb="$work/deb/libpykern${soversion}_${version}_amd64.deb"
cli_deb="$work/deb/pykern_${version}_amd64.deb"
dev_deb="$work/deb/libpykern-dev_${version}_amd64.deb"
holds() {  # DEB FILE...: the package holds each file
  deb=$1
  shift
  dpkg-deb -c "$deb" > "$work/deb/contents.txt"
  for file in "$@"; do
    grep -qE " \./usr/$file( -> .*)?\$" "$work/deb/contents.txt" || { echo "$(basename "$deb") lacks /usr/$file" >&2; exit 1; }
  done
}
holds "$lib_deb" "$libdir/libpykern.so.$version" "$libdir/libpykern.so.$soversion" "share/doc/libpykern$soversion/copyright"
holds "$cli_deb" bin/pykern "$libdir/cmake/pykern/pykernCliTargets.cmake" share/doc/pykern/copyright
holds "$dev_deb" "$libdir/libpykern.a" "$libdir/libpykern.so" "$libdir/libpykern_tree_sitter.a" include/pykern/module.h \
  "$libdir/cmake/pykern/pykernConfig.cmake" "$libdir/cmake/pykern/pykernConfigVersion.cmake" \
  "$libdir/cmake/pykern/pykernKernels.cmake" "$libdir/pkgconfig/pykern.pc" share/pykern/runtime/pykern/core.cuh \
  share/doc/libpykern-dev/copyright
[ -f "$work/deb/libpykern${soversion}-dbgsym_${version}_amd64.ddeb" ] || { echo "no -dbgsym package of the library" >&2; exit 1; }
# Sizes, in KiB, against limits about twice what 0.2.0 measured (so growth passes and debug
# information does not: unstripped, the library alone was 80 MB, the .a 200 MB). Measured:
# library 1.5 MB packed, Installed-Size 7.7 MB (CPack counts libpykern.so.0.2.0 again through its
# link); command 1.7 MB, 4.1 MB; -dev 2.3 MB, 8.2 MB.
check_size() {  # DEB MAX_DEB_KIB MAX_INSTALLED_KIB
  packed=$(( $(stat -c %s "$1") / 1024 ))
  installed=$(dpkg-deb -f "$1" Installed-Size)
  echo "consumer: $(basename "$1"): ${packed} KiB, Installed-Size ${installed} KiB"
  if [ "$packed" -gt "$2" ] || [ "$installed" -gt "$3" ]; then
    echo "$(basename "$1") is over its limits ($2 KiB, $3 KiB installed): debug information?" >&2
    exit 1
  fi
}
check_size "$lib_deb" 4000 15000
check_size "$cli_deb" 4000 10000
check_size "$dev_deb" 6000 20000
# Control fields: run-time Depends from dpkg-shlibdeps; -dev on the library (this version) and
# on dlpack's headers, which pykern/array.h includes; a real description.
dpkg-deb -f "$lib_deb" Depends | grep -q 'libc6 (>= ' || { echo "libpykern has no shlibdeps Depends" >&2; exit 1; }
dpkg-deb -f "$dev_deb" Depends | grep -q "libpykern$soversion (= $version).*libdlpack-dev" ||
  { echo "libpykern-dev's Depends: $(dpkg-deb -f "$dev_deb" Depends)" >&2; exit 1; }
[ "$(dpkg-deb -f "$cli_deb" Description | wc -l)" -gt 5 ] || { echo "pykern's description is a line" >&2; exit 1; }
dpkg-deb -I "$lib_deb" shlibs | grep -q "^libpykern $soversion libpykern$soversion (= $version)" ||
  { echo "libpykern has no shlibs file" >&2; exit 1; }
# Unpacked into a scratch root: a project finds the package there, links the shared library and
# runs without LD_LIBRARY_PATH; so does a pkg-config build.
for deb in "$lib_deb" "$cli_deb" "$dev_deb"; do dpkg-deb -x "$deb" "$work/root"; done
head -1 "$work/root/usr/share/doc/pykern/copyright" | grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' ||
  { echo "the copyright file is not machine-readable" >&2; exit 1; }
if readelf -S "$work/root/usr/$libdir/libpykern.so.$version" "$work/root/usr/bin/pykern" | grep -q '\.debug_info'; then
  echo "the packaged library or command carries debug information" >&2
  exit 1
fi
cmake -S "$here" -B "$work/build-deb" -DCMAKE_PREFIX_PATH="$work/root/usr" -DPYKERN_TARGET=pykern::pykern_shared \
  -DPYKERN_BUNDLE_ARCHS=NONE > "$work/configure-deb.log"
cmake --build "$work/build-deb" --target consumer > "$work/build-deb.log"
ldd "$work/build-deb/consumer" | grep -q "$work/root/usr/$libdir/libpykern.so" ||
  { echo "the consumer of the unpacked .deb does not use its libpykern.so" >&2; exit 1; }
env -u LD_LIBRARY_PATH "$work/build-deb/consumer" "$here/kernels.py"
c++ -std=c++20 -O1 "$here/main.cpp" -o "$work/consumer-deb-pc" \
  $(PKG_CONFIG_PATH="$work/root/usr/$libdir/pkgconfig" pkg-config --cflags --libs pykern)
env -u LD_LIBRARY_PATH "$work/consumer-deb-pc" "$here/kernels.py"
echo "consumer: the .debs hold the install tree, within their sizes, and a project builds against them"
[ -n "${PYKERN_KEEP_CONSUMER:-}" ] || rm -rf "$work"
