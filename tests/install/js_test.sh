#!/bin/sh
# The second example backend, as a vendor builds it: install ppy (with its SDK)
# into a fresh prefix, build examples/vendor-js against it out of tree (the SDK's
# structurizer included, PpySdk::source), install it, run the installed ppy's
# conformance checks on it, and run programs through it with node against
# python3's output.
# Usage: js_test.sh SOURCE_DIR BUILD_DIR
set -eu
src=$1
build=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > /dev/null
cmake -S "$src/examples/vendor-js" -B "$work/js-build" -DCMAKE_PREFIX_PATH="$prefix" > /dev/null
cmake --build "$work/js-build"
cmake --install "$work/js-build" --prefix "$prefix" > /dev/null
run() { env -u PPY_BACKEND_PATH -u XDG_DATA_HOME HOME="$work/home" "$prefix/bin/ppy" "$@"; }
run backends | grep "^js  *ppy-js 0.1  formats: js  $prefix/lib/ppy/backends/js\$"

run conformance js --missing-toolchain node=/nonexistent/node | tee "$work/conformance.txt"
tail -n 1 "$work/conformance.txt" | grep -q "^all [0-9]* checks passed$"

cd "$work"
# Programs python3 runs too: the same stdout, emitted or built.
for name in numbers loops; do
  cp "$src/tests/install/js/$name.ppy" .
  python3 "$name.ppy" > "$name.expected"
  run build "$name.ppy" --backend js -o out
  test -x "out/$name.js"
  node "out/$name.js" > "$name.got"
  diff -u "$name.expected" "$name.got"
  run emit js "$name.ppy" -o "$name.emitted.js"
  cmp "$name.emitted.js" "out/$name.js"
  echo "$name: as python3"
done
# A project of two modules: one program, the imported module's code first.
cp -r "$src/tests/install/js/project" project
mkdir project-py
for m in lib main; do cp "project/src/app/$m.ppy" "project-py/$m.py"; done
mkdir project-py/app && mv project-py/*.py project-py/app/
(cd project-py && python3 -m app.main) > project.expected
run build project --backend js -o project-out
node project-out/app.main.js > project.got
diff -u project.expected project.got
echo "project: as python3"
# An int past i64 raises as on ppy's other roads (python3 has no limit to compare).
cp "$src/tests/install/js/overflow.ppy" .
run build overflow.ppy --backend js -o out
status=0
node out/overflow.js > overflow.got 2> overflow.err || status=$?
test "$status" = 1
run run overflow.ppy 2> /dev/null | cmp - overflow.got
grep -qx "OverflowError: integer overflow" overflow.err
echo "overflow: as ppy run"
# What jsgen does not write is refused with the contract's E1802, naming it.
cp "$src/tests/install/js/refused.ppy" .
if run build refused.ppy --backend js -o out 2> refused.err; then echo "refused.ppy was built"; exit 1; fi
cat refused.err
grep -q "error\[E1802\]: backend 'js' cannot take .* in refused_main at refused.ppy:[0-9]*:[0-9]* (needs lists)" refused.err
echo "js: ok"
