#!/bin/sh
# A device library and its backend, one distribution (examples/plugins/devicelib),
# built out of tree against the SDK as `cmake --install --component sdk` lays
# it out, installed into a vendor prefix, and checked by the compiler's
# `ppy conformance` (the plugin's pass server and the backend both).
# Usage: devicelib_test.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build" --component sdk --prefix "$work/sdk" > /dev/null
cmake -S "$src/examples/plugins/devicelib" -B "$work/build" -G Ninja -DCMAKE_PREFIX_PATH="$work/sdk" > /dev/null
cmake --build "$work/build" -j2 > /dev/null
cmake --install "$work/build" --prefix "$work/vendor" > /dev/null
dist=$work/vendor/lib/ppy/backends/devicelib
cat "$dist/manifest.toml"
grep -q '^\[backends.devicelib\]$' "$dist/manifest.toml"
grep -q '^\[plugins.devicelib\]$' "$dist/manifest.toml"
grep -q '^modules = \["devicelib"\]$' "$dist/manifest.toml"
test -f "$dist/devicelib.pyi"
"$build/bin/ppy" conformance --help | grep -q "installed backend or plugin"
PPY_BACKEND_PATH=$work/vendor/lib/ppy/backends "$build/bin/ppy" conformance devicelib | tee "$work/checks.txt"
grep -q "^conformance of plugin 'devicelib'" "$work/checks.txt"
grep -q "^conformance of backend 'devicelib'" "$work/checks.txt"
test "$(grep -c '^all [0-9]* checks passed$' "$work/checks.txt")" = 2
echo "devicelib: ok"
