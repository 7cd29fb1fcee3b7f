#!/bin/sh
# `cmake --install` puts ppy and the toy's distribution under a prefix; the
# installed driver finds the toy there (nothing on PPY_BACKEND_PATH) and builds.
# Usage: install_test.sh BUILD_DIR PROGRAM.ppy
set -eu
build=$1
program=$2
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" >/dev/null
run() { env -u PPY_BACKEND_PATH HOME="$prefix/home" "$prefix/bin/ppy" "$@"; }
listed=$(run backends)
echo "$listed"
echo "$listed" | grep -q "^toy  *ppy-toy 0.1  formats: toy, toy-image  $prefix/lib/ppy/backends/toy\$"
# The sandbox's init is installed beside the backends and found from there.
test -x "$prefix/lib/ppy/ppy-sandbox-init"
run doctor | grep -q "^sandbox default   .*ppy-sandbox-init"
run build "$program" --backend toy -o "$prefix/out"
test -s "$prefix/out/$(basename "$program" .ppy).toy"
echo "install: ok"
