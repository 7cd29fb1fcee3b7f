#!/bin/sh
# A device library and its backend, one distribution (examples/plugins/devicelib),
# built out of tree against the SDK as `cmake --install --component sdk` lays
# it out, installed into a vendor prefix, and checked by the compiler's
# `ppy conformance` (the plugin's pass server and the backend both). A program
# calling the stub's `@op("devicelib.fill")` (an op of the plugin's dialect)
# emits and builds with the devicelib backend, which declares the dialect;
# every other road refuses it with E1802 naming the op, before anything runs.
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
test "$(grep -c '^dialects = \["devicelib"\]$' "$dist/manifest.toml")" = 2  # the plugin's and its backend's
test -f "$dist/devicelib.pyi"
"$build/bin/ppy" conformance --help | grep -q "installed backend or plugin"
PPY_BACKEND_PATH=$work/vendor/lib/ppy/backends "$build/bin/ppy" conformance devicelib | tee "$work/checks.txt"
grep -q "^conformance of plugin 'devicelib'" "$work/checks.txt"
grep -q "^conformance of backend 'devicelib'" "$work/checks.txt"
test "$(grep -c '^all [0-9]* checks passed$' "$work/checks.txt")" = 2

# The op of the plugin's dialect: only the devicelib backend takes it.
export PPY_BACKEND_PATH="$work/vendor/lib/ppy/backends"
export HOME="$work/home"
ppy="$build/bin/ppy"
(cd "$work" && "$ppy" plugins) | grep -q '^ *dialects devicelib$'
mkdir "$work/prog"
cat >"$work/prog/program.ppy" <<'PROGRAM'
import devicelib


def filled(count: int) -> float:
    return devicelib.fill(count, 2.5)


print(filled(4))
PROGRAM
"$ppy" emit ir "$work/prog/program.ppy" -o "$work/ir/"
grep -q 'devicelib\.fill' "$work/ir/"*
"$ppy" emit devicelib-plan "$work/prog/program.ppy" -o "$work/plan/"
cat "$work/plan/"*
grep -q '^program_filled: device (devicelib\.fill)$' "$work/plan/"*
"$ppy" build -q --backend devicelib "$work/prog/program.ppy" -o "$work/built"
grep -q '^program_filled: device (devicelib\.fill)$' "$work/built/program.plan"
# Every other road refuses, naming the op, exits non-zero, prints and writes nothing.
refused() {  # NAME COMMAND...: refused with E1802 naming devicelib.fill
  name=$1
  shift
  if "$@" >"$work/$name.out" 2>"$work/$name.err"; then
    echo "$name: not refused"
    exit 1
  fi
  cat "$work/$name.err"
  grep -q "error\[E1802\]: .*cannot take devicelib\.fill in [a-zA-Z_]* at .*\(program\.ppy:5\|devicelib\.pyi:14\):" "$work/$name.err"  # the call in the program (an inlined op is at its call), or the stub's op where it stays a function
  test ! -s "$work/$name.out"
}
refused jit "$ppy" run "$work/prog/program.ppy"
refused interp "$ppy" run --interp "$work/prog/program.ppy"
refused run-c "$ppy" run --backend c "$work/prog/program.ppy"
refused run-python "$ppy" run --backend python "$work/prog/program.ppy"
refused build-llvm "$ppy" build -q --backend llvm "$work/prog/program.ppy" -o "$work/out-llvm"
test ! -e "$work/out-llvm"
refused emit-c "$ppy" emit c "$work/prog/program.ppy" -o "$work/out-c/"
test ! -e "$work/out-c"
# Sources name the user's function the op is in (a linked .ppyir, for `run --backend c`, may name the stub's).
grep -q "^error\[E1802\]: the interpreter cannot take devicelib\.fill in program_filled " "$work/interp.err"
grep -q "^error\[E1802\]: backend 'llvm' cannot take" "$work/jit.err"
grep -q "^error\[E1802\]: backend 'c' cannot take" "$work/run-c.err"
echo "devicelib: ok"
