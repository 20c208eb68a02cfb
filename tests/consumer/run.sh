#!/bin/sh
# ctest `consumer`: installs pykern from BUILD into a fresh prefix, then builds tests/consumer
# against it twice (the CMake package, and pkg-config) and runs both programs; then makes the
# .deb (cpack) and checks it holds the same tree under /usr.
#   tests/consumer/run.sh BUILD_DIR WORK_DIR
set -eu
build=$1
work=$2
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
"$work/prefix/bin/pykern" --version
cmake -S "$here" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/consumer" "$here/kernels.py"
# The shared library: the program finds it through the RPATH CMake gives it.
cmake -S "$here" -B "$work/build-shared" -DCMAKE_PREFIX_PATH="$work/prefix" -DPYKERN_TARGET=pykern::pykern_shared \
  > "$work/configure-shared.log"
cmake --build "$work/build-shared" > "$work/build-shared.log"
ldd "$work/build-shared/consumer" | grep -q "libpykern.so" || { echo "the shared consumer does not use libpykern.so" >&2; exit 1; }
"$work/build-shared/consumer" "$here/kernels.py"
# 0.x: asking for another minor version finds nothing.
if cmake -S "$here" -B "$work/build-0.3" -DCMAKE_PREFIX_PATH="$work/prefix" -DPYKERN_WANT=0.3 > "$work/0.3.log" 2>&1; then
  echo "find_package(pykern 0.3) accepted pykern $(cat "$work/prefix/lib/cmake/pykern/pykernConfigVersion.cmake" | grep -m1 PACKAGE_VERSION)" >&2
  exit 1
fi
# pkg-config, as a Makefile project would use it.
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --modversion pykern
c++ -O1 "$here/main.cpp" -o "$work/consumer-pc" $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs pykern)
LD_LIBRARY_PATH="$work/prefix/lib" "$work/consumer-pc" "$here/kernels.py"
# The .deb of the install tree.
cpack --config "$build/CPackConfig.cmake" -B "$work/deb" > "$work/cpack.log"
dpkg-deb -c "$work"/deb/pykern_*.deb > "$work/deb.txt"
for file in ./usr/bin/pykern ./usr/lib/libpykern.a ./usr/lib/libpykern.so.0.2.0 ./usr/lib/libpykern_tree_sitter.a ./usr/include/pykern/module.h \
            ./usr/lib/cmake/pykern/pykernConfig.cmake ./usr/lib/cmake/pykern/pykernConfigVersion.cmake \
            ./usr/lib/pkgconfig/pykern.pc ./usr/share/pykern/runtime/pykern/core.cuh; do
  grep -q " $file\$" "$work/deb.txt" || { echo "the .deb lacks $file" >&2; exit 1; }
done
echo "consumer: $(basename "$work"/deb/pykern_*.deb) holds the install tree"
rm -rf "$work"
