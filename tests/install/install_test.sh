#!/bin/sh
# `cmake --install` puts ppy and the toys' distributions under a prefix; the
# installed driver finds them there (nothing on PPY_BACKEND_PATH), builds with
# the toy and checks the Python toy's conformance.
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
# The Python toy is a distribution like any other, and passes the contract's
# checks from the prefix through its helper on a unix socket.
test -x "$prefix/lib/ppy/backends/pytoy/ppy-backend-pytoy"
test -f "$prefix/lib/ppy/backends/pytoy/gen/ppy/backend/v1/backend_pb2_grpc.py"
run conformance pytoy --missing-toolchain sdk-version=missing
# The ppy package for CPython is installed too: the same program under python3
# with only the install's path prints what the installed compiler's build prints.
py_path="$prefix/lib/python3/dist-packages"
test -f "$py_path/ppy/__init__.py"
cat > "$prefix/hello.ppy" <<'PROGRAM'
from ppy import export


@export
def twice(n: int) -> int:
    return n * 2


if __name__ == "__main__":
    print("twice", twice(21))
PROGRAM
PYTHONPATH="$py_path" python3 -m ppy "$prefix/hello.ppy" > "$prefix/python3.out"
run run --interp "$prefix/hello.ppy" > "$prefix/ppy.out"
grep -qx "twice 42" "$prefix/ppy.out"
cmp "$prefix/python3.out" "$prefix/ppy.out"
# The standard library written in ppy (docs/stdlib.md) is installed beside the
# compiler and found from its prefix: heapq's order is python3's.
test -f "$prefix/share/ppy/stdlib/heapq.ppy"
cat > "$prefix/top.ppy" <<'PROGRAM'
import heapq


def main() -> None:
    heap: list[int] = []
    for x in [5, 1, 8, 3, 9, 2]:
        heapq.heappush(heap, x)
    print(heap, heapq.nsmallest(3, [7, 4, 6, 1]), heapq.heappop(heap))


if __name__ == "__main__":
    main()
PROGRAM
run run "$prefix/top.ppy" > "$prefix/top.out"
python3 "$prefix/top.ppy" | cmp - "$prefix/top.out"
echo "install: ok"
