#!/bin/sh
# The vecmath plugin from an install prefix (issue 36): `cmake --install` of
# examples/plugins/vecmath, found through PPY_BACKEND_PATH; `ppy plugins` lists
# it; a program importing vecmath runs through the LLVM backend's JIT, built
# (`ppy build`, also --standalone) and through the C backend, and prints what
# python3 prints with vecmath.py; a wrong call is a diagnostic at
# the caller's line; the interpreter refuses the native call by name; a changed
# plugin version rebuilds exactly the modules that import vecmath; built with
# its pass server, the fusion pass fires and the program prints the same.
# Usage: vecmath_test.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
ppy="$build/bin/ppy"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake -S "$src/examples/plugins/vecmath" -B "$work/build" >/dev/null
cmake --build "$work/build" >/dev/null
cmake --install "$work/build" --prefix "$work/prefix" >/dev/null
dist="$work/prefix/lib/ppy/backends/vecmath"
test -f "$dist/manifest.toml" && test -f "$dist/vecmath.pyi" && test -f "$dist/lib/libvecmath.so"
export PPY_BACKEND_PATH="$work/prefix/lib/ppy/backends"
export HOME="$work/home"

listed=$(cd "$work" && "$ppy" plugins)
echo "$listed"
echo "$listed" | grep -q "^vecmath  *ppy-vecmath 1.0  modules: vecmath\$"
echo "$listed" | grep -q "^ *stub $dist/vecmath.pyi\$"
echo "$listed" | grep -q "^ *fingerprint ppy-vecmath 1.0; stub [0-9a-f]*; library libvecmath.so [0-9a-f]*\$"

# The program, as python3 runs it with the pure-Python module, and as ppy runs it.
cp "$src/tests/plugins/vecmath_program.ppy" "$work/program.ppy"
status=0
PYTHONPATH="$src/examples/plugins/vecmath:$src/python" python3 "$work/program.ppy" >"$work/python3.out" \
  2>"$work/python3.err" || status=$?
test "$status" = 1
status=0
"$ppy" run "$work/program.ppy" >"$work/ppy.out" 2>"$work/ppy.err" || status=$?
cat "$work/ppy.out" "$work/ppy.err"
test "$status" = 1
cmp "$work/python3.out" "$work/ppy.out"
test "$(tail -n 1 "$work/python3.err")" = "$(tail -n 1 "$work/ppy.err")"

# Built executables link the plugin's library, found through an rpath: the
# default build and --standalone run from another folder as python3 does.
check_run() {  # check_run NAME COMMAND...: exit status 1, python3's stdout, its last stderr line
  name=$1
  shift
  status=0
  (cd / && "$@") >"$work/$name.out" 2>"$work/$name.err" || status=$?
  cat "$work/$name.out" "$work/$name.err"
  test "$status" = 1
  cmp "$work/python3.out" "$work/$name.out"
  test "$(tail -n 1 "$work/python3.err")" = "$(tail -n 1 "$work/$name.err")"
}
"$ppy" build -q --backend llvm "$work/program.ppy" -o "$work/built"
check_run built "$work/built/program"
# The executable finds libvecmath through an absolute RUNPATH to the installed
# distribution's lib/ (no $ORIGIN copy): moved to another folder it still runs.
if command -v readelf >/dev/null; then
  readelf -d "$work/built/program" | grep -q "RUNPATH.*\[$dist/lib\]"
fi
mkdir -p "$work/moved"
cp "$work/built/program" "$work/moved/program"
check_run moved "$work/moved/program"
# Under --sandbox strict the LLVM helper sees only the system folders and its
# own, and the plugin's library lies in a prefix outside them: the build works
# (the executable runs as python3 does) or is a clear error, never a crash.
status=0
"$ppy" build -q --backend llvm --sandbox strict "$work/program.ppy" -o "$work/strict" 2>"$work/strict.err" || status=$?
cat "$work/strict.err"
if [ "$status" = 0 ]; then
  check_run strict "$work/strict/program"
else
  test "$status" -lt 128
  grep -q 'error\[E[0-9]*\]' "$work/strict.err"
fi
"$ppy" build -q --backend llvm --standalone "$work/program.ppy" -o "$work/standalone" 2>"$work/standalone.note"
cat "$work/standalone.note"
check_run standalone "$work/standalone/program"

# The C backend declares the symbols with their C signature and names the
# library; `ppy run --backend c` links it.
mkdir -p "$work/c"
"$ppy" emit c "$work/program.ppy" -o "$work/c"
cat "$work"/c/*.c | grep -q "^double vecmath_dot(double\*, int64_t, double\*, int64_t);\$"
cat "$work"/c/*.c | grep -q "^void vecmath_axpy(double, double\*, int64_t, double\*, int64_t);\$"
cat "$work"/c/*.c | grep -q "native library 'vecmath': link it (-lvecmath"
check_run c "$ppy" run --backend c "$work/program.ppy"

# Roads that cannot call native code refuse the call by symbol and library (E1802).
if "$ppy" run --interp "$work/program.ppy" >/dev/null 2>"$work/interp.err"; then exit 1; fi
cat "$work/interp.err"
grep -q "E1802.*the symbol 'vecmath_dot' of the native library 'vecmath'" "$work/interp.err"
if "$ppy" run --backend python "$work/program.ppy" >/dev/null 2>"$work/python.err"; then exit 1; fi
cat "$work/python.err"
grep -q "E1802.*the symbol 'vecmath_[a-z]*' of the native library 'vecmath'" "$work/python.err"

# A wrong call is the checker's diagnostic at the caller's line and column.
printf 'import vecmath\n\n\ndef main() -> None:\n    print(vecmath.dot([1.0], 2))\n' >"$work/wrong.ppy"
if "$ppy" check "$work/wrong.ppy" >"$work/wrong.out" 2>&1; then exit 1; fi
cat "$work/wrong.out"
grep -q "wrong.ppy:5:.*error\[E10" "$work/wrong.out"

# [tool.ppy.plugins.vecmath] enabled = false: the module is unknown again.
mkdir -p "$work/off"
cp "$work/wrong.ppy" "$work/off/main.ppy"
printf '[tool.ppy.plugins.vecmath]\nenabled = false\n' >"$work/off/pyproject.toml"
if "$ppy" check "$work/off" >"$work/off.out" 2>&1; then exit 1; fi
cat "$work/off.out"
grep -q "vecmath" "$work/off.out"
(cd "$work/off" && "$ppy" plugins) | grep -q "disabled by the project"

# A changed plugin version: only the modules importing vecmath (geometry, and
# vecmath's stub itself) miss the cache; main and words are found there.
cp -r "$src/tests/plugins/rebuild" "$work/rebuild"
row() { "$ppy" cache stats "$work/rebuild" | awk '$1 == "llvm" { print $2, $(NF-2), $NF }'; }
"$ppy" emit object "$work/rebuild" -o "$work/objects"
test "$(row)" = "4 0 4"
"$ppy" emit object "$work/rebuild" -o "$work/objects"
test "$(row)" = "4 4 4"
sed -i 's/^version = "1.0"/version = "1.1"/' "$dist/manifest.toml"
"$ppy" emit object "$work/rebuild" -o "$work/objects"
row
test "$(row)" = "6 6 6"
# With its pass server (built against the SDK as `cmake --install --component
# sdk` lays it out), the distribution lists its passes; vecmath-fuse-axpy-norm
# fires on the program (moved_norm's axpy then norm of y, inlined from the stub
# into the program's module, become one call of vecmath_axpy_norm), and the
# program prints the same through the JIT and built.
cmake --install "$build" --component sdk --prefix "$work/sdk" >/dev/null
cmake -S "$src/examples/plugins/vecmath" -B "$work/build-passes" -DCMAKE_PREFIX_PATH="$work/sdk" >/dev/null
cmake --build "$work/build-passes" >/dev/null
cmake --install "$work/build-passes" --prefix "$work/with-passes" >/dev/null
export PPY_BACKEND_PATH="$work/with-passes/lib/ppy/backends"
passes=$(cd "$work" && "$ppy" plugins)
echo "$passes" | grep -q "^ *passes $work/with-passes/lib/ppy/backends/vecmath/ppy-plugin-vecmath\$"
# Without the pass server the IR calls axpy and norm; with it, one fused call
# in moved_norm and no norm after an axpy there (whether main inlines
# moved_norm is the inliner's choice, not the pass's).
mkdir -p "$work/ir-plain" "$work/ir-fused"
PPY_BACKEND_PATH="$work/prefix/lib/ppy/backends" "$ppy" emit ir "$work/program.ppy" -o "$work/ir-plain/"
"$ppy" emit ir "$work/program.ppy" -o "$work/ir-fused/"
fused() { sed -n '/^func @program_moved_norm/,/^}/p' "$1" | grep -c 'callee = "vecmath_axpy_norm"' || true; }
test "$(fused "$work/ir-plain/program.ppyir")" = 0
test "$(fused "$work/ir-fused/program.ppyir")" = 1
sed -n '/^func @program_moved_norm/,/^}/p' "$work/ir-fused/program.ppyir" | grep 'vecmath_axpy_norm'
if sed -n '/^func @program_moved_norm/,/^}/p' "$work/ir-fused/program.ppyir" | grep -q 'callee = "vecmath_norm"'; then
  exit 1
fi
check_run passes-jit "$ppy" run "$work/program.ppy"
"$ppy" build -q --backend llvm "$work/program.ppy" -o "$work/built-passes"
check_run passes-built "$work/built-passes/program"
echo "vecmath from the prefix: ok"
