#!/bin/sh
# A vendor's road, end to end: install ppy (with its SDK) into a fresh prefix,
# build examples/vendor-backend out of tree with exactly the commands
# docs/writing-a-backend.md gives (read from the doc, so they cannot drift),
# install it, and run it through the installed ppy, conformance checks included.
# Usage: vendor_test.sh SOURCE_DIR BUILD_DIR PROGRAM.ppy
set -eu
src=$1
build=$2
program=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
PREFIX=$work/prefix
export PREFIX

# The doc's block marked `runs this block` followed by $1 (none, or `: a vendor
# prefix`...), written to $work/commands.sh.
doc_block() {
  awk -v marker="<!-- tests/install/vendor_test.sh runs this block$1 -->" '
     $0 == marker { on = 1; next }
     on && /^```sh$/ { inside = 1; next }
     inside && /^```$/ { exit }
     inside { print }' "$src/docs/writing-a-backend.md" > "$work/commands.sh"
  test -s "$work/commands.sh"
  echo "--- running the doc's commands:"; cat "$work/commands.sh"
}
# Run from a folder that has ppy's build as build/ and the examples as examples/.
ln -s "$build" "$work/build"
ln -s "$src/examples" "$work/examples"
doc_block ""
listed=$(cd "$work" && env -u PPY_BACKEND_PATH -u XDG_DATA_HOME HOME="$work/home" sh -eu "$work/commands.sh")
echo "$listed"
dist=$PREFIX/lib/ppy/backends/outline
echo "$listed" | grep -q "^outline  *ppy-outline 0.1  formats: outline, outline-index  $dist\$"

# What a vendor includes pulls in neither gRPC nor protobuf, and nothing
# installed names the driver's API version.
printf '#include "ppy/backend/backend.h"\n#include "ppy/backend/serve.h"\n' > "$work/vendor.cc"
deps=$(c++ -std=c++20 -M -I"$PREFIX/include" "$work/vendor.cc")
if echo "$deps" | grep -E "grpc|protobuf|service\.h|session\.h"; then
  echo "vendor headers pull in the above"; exit 1
fi
if grep -rl kBackendApiVersion "$PREFIX/include"; then echo "kBackendApiVersion is installed"; exit 1; fi
test -f "$PREFIX/include/ppy/backend/v1/backend.grpc.pb.h"
test -f "$PREFIX/share/ppy/proto/ppy/backend/v1/backend.proto"

# The manifest came from the class, and the helper is linked like the toy:
# no more shared gRPC than the toy's.
grep -q '^name = "ppy-outline"$' "$dist/manifest.toml"
grep -q '^executable = "ppy-backend-outline"$' "$dist/manifest.toml"
grep -q '^outline-index = "outline"$' "$dist/manifest.toml"
toy_libs=$(ldd "$build/backends/toy/ppy-backend-toy" | grep -c -E "libgrpc|libprotobuf|libabsl" || true)
vendor_libs=$(ldd "$dist/ppy-backend-outline" | grep -c -E "libgrpc|libprotobuf|libabsl" || true)
echo "shared gRPC/protobuf/absl libraries: toy $toy_libs, vendor $vendor_libs"
test "$vendor_libs" -le "$toy_libs"

run() { env -u PPY_BACKEND_PATH -u XDG_DATA_HOME HOME="$work/home" "$PREFIX/bin/ppy" "$@"; }
name=$(basename "$program" .ppy)
run emit outline "$program" > "$work/outline.txt"
cat "$work/outline.txt"
grep -q "^${name}_main: [0-9]* block(s), [0-9]* op(s):.* core.ret x1$" "$work/outline.txt"
run build "$program" --backend outline -o "$work/out"
test -s "$work/out/$name.outline"
cmp "$work/out/$name.outline" "$work/outline.txt"
# The installed ppy's conformance checks pass for it, through its spawned helper.
run conformance outline --missing-toolchain toolchain=missing | tee "$work/conformance.txt"
tail -n 1 "$work/conformance.txt" | grep -q "^all [0-9]* checks passed$"

# Without write access to ppy's prefix: the same distribution in a vendor prefix
# found through PPY_BACKEND_PATH, then in the user's data folder, with the doc's
# commands; it is gone from ppy's prefix first (one name, one distribution).
rm -rf "$dist"
test "$(run backends | grep -c '^outline ' || true)" = 0
VENDOR_PREFIX=$work/vendor
export VENDOR_PREFIX
doc_block ": a vendor prefix"
listed=$(cd "$work" && env -u XDG_DATA_HOME HOME="$work/home" sh -eu "$work/commands.sh")
echo "$listed"
echo "$listed" | grep -q "^outline  *ppy-outline 0.1  formats: outline, outline-index  $VENDOR_PREFIX/lib/ppy/backends/outline\$"
env PPY_BACKEND_PATH="$VENDOR_PREFIX/lib/ppy/backends" HOME="$work/home" "$PREFIX/bin/ppy" build "$program" \
    --backend outline -o "$work/out-vendor"
cmp "$work/out-vendor/$name.outline" "$work/outline.txt"
rm -rf "$VENDOR_PREFIX"

doc_block ": the user's data folder"
listed=$(cd "$work" && env -u PPY_BACKEND_PATH -u XDG_DATA_HOME HOME="$work/home" sh -eu "$work/commands.sh")
echo "$listed"
echo "$listed" | grep -q "^outline  *ppy-outline 0.1  formats: outline, outline-index  $work/home/.local/share/ppy/backends/outline\$"
run build "$program" --backend outline -o "$work/out-user"
cmp "$work/out-user/$name.outline" "$work/outline.txt"
echo "vendor: ok"
