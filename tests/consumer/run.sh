#!/bin/sh
# ctest `consumer`: installs pykern from BUILD into a fresh prefix, then builds tests/consumer
# against it twice (the CMake package, and pkg-config) and runs both programs; builds and runs
# `bundled`, whose kernels pykern_add_kernels (and, for pkg-config, `pykern bundle`) compiled, where neither NVRTC nor
# kernels.py can be found; checks that wrong argument types do not compile; then makes the
# .deb (cpack) and checks it holds the same tree under /usr.
#   tests/consumer/run.sh BUILD_DIR WORK_DIR   (PYKERN_KEEP_CONSUMER=1 keeps WORK_DIR to look at)
set -eu
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
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
  echo "find_package(pykern 0.3) accepted pykern $(cat "$work/prefix/lib/cmake/pykern/pykernConfigVersion.cmake" | grep -m1 PACKAGE_VERSION)" >&2
  exit 1
fi
# pkg-config, as a Makefile project would use it.
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --modversion pykern
# Cflags name no -std (main.cpp uses std::span, so it asks for C++20 itself); the program starts
# without LD_LIBRARY_PATH, and the bundle's program below builds as C++17.
if PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags pykern | grep -q -- '-std='; then
  echo "pykern.pc's Cflags choose the C++ standard" >&2
  exit 1
fi
c++ -std=c++20 -O1 "$here/main.cpp" -o "$work/consumer-pc" $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs pykern)
env -u LD_LIBRARY_PATH "$work/consumer-pc" "$here/kernels.py"
# A bundle made with the CLI, for a build without CMake.
mkdir "$work/pc-bundle"
arch_list=$(echo "$archs" | sed 's/NONE/none/; s/\([0-9][0-9]*\)/sm_\1/g; s/;/,/g')
"$work/prefix/bin/pykern" bundle "$here/kernels.py" --arch "$arch_list" --cache-dir "$work/pc-bundle/cache" \
  --sig "$saxpy_f4" --sig 'saxpy=void(float64, float64[:], float64[:], float64[:])' \
  --sig 'scale_rows=void(int32[:, ::1], int32[::1])' -o "$work/pc-bundle/kernels_bundle.h" 2> "$work/pc-bundle.log"
c++ -std=c++17 -O1 -I "$work/pc-bundle" "$here/bundled.cpp" -o "$work/bundled-pc" \
  $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs pykern)
(cd "$work/elsewhere" && env -u LD_LIBRARY_PATH PYKERN_NVRTC=/nonexistent "$work/bundled-pc")
# The .deb of the install tree.
cpack --config "$build/CPackConfig.cmake" -B "$work/deb" > "$work/cpack.log"
dpkg-deb -c "$work"/deb/pykern_*.deb > "$work/deb.txt"
for file in ./usr/bin/pykern ./usr/lib/libpykern.a ./usr/lib/libpykern.so.0.2.0 ./usr/lib/libpykern_tree_sitter.a ./usr/include/pykern/module.h \
            ./usr/lib/cmake/pykern/pykernConfig.cmake ./usr/lib/cmake/pykern/pykernConfigVersion.cmake ./usr/lib/cmake/pykern/pykernKernels.cmake \
            ./usr/lib/pkgconfig/pykern.pc ./usr/share/pykern/runtime/pykern/core.cuh; do
  grep -q " $file\$" "$work/deb.txt" || { echo "the .deb lacks $file" >&2; exit 1; }
done
echo "consumer: $(basename "$work"/deb/pykern_*.deb) holds the install tree"
[ -n "${PYKERN_KEEP_CONSUMER:-}" ] || rm -rf "$work"
