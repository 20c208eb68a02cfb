#!/bin/sh
# ctest `consumer`: installs pykern from BUILD into a fresh prefix, then builds tests/consumer
# against it twice (the CMake package, and pkg-config) and runs both programs.
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
# pkg-config, as a Makefile project would use it.
PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --modversion pykern
c++ -O1 "$here/main.cpp" -o "$work/consumer-pc" $(PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" pkg-config --cflags --libs pykern)
"$work/consumer-pc" "$here/kernels.py"
rm -rf "$work"
