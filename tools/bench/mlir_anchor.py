"""The MLIR anchor for ir_bench's decode figure (issue 20): MLIR 19's bytecode reader
on a module of the same op count and shape as ir_bench's 100k-op module.

The module is written in MLIR's generic form (func, arith, memref, cf), one function
per ir_bench function (51 ops in four blocks, a location on every op), turned into
`.mlirbc` by `mlir-opt-19 --emit-bytecode`, then read by `mlir-opt-19 --mlir-timing`;
the figure is the timing report's "Parser" time minus that of an empty module.
"""

import os
import re
import shutil
import subprocess
import tempfile

TARGET_OPS = 100000  # ir_bench's kTargetOps
FILE = '"bench/numeric.ppy"'


def function(k, out):
    """Writes ir_bench's add_function(k) in generic MLIR; answers its op count."""
    line = k * 64 + 1
    ops = 0
    n = 0
    body = []

    def op(text, col_line, col):
        nonlocal ops
        ops += 1
        body.append(f"    {text} loc({FILE}:{col_line}:{col})")

    def v():
        nonlocal n
        n += 1
        return f"%v{n}"

    ln = line
    acc, facc = v(), v()
    ln += 1
    op(f'{acc} = "arith.constant"() <{{value = {k} : i64}}> : () -> i64', ln, 5)
    ln += 1
    op(f'{facc} = "arith.constant"() <{{value = 5.000000e-01 : f64}}> : () -> f64', ln, 5)
    for r in range(5):
        c, x, lo, y, a2, fx, f2 = v(), v(), v(), v(), v(), v(), v()
        for text in (
            f'{c} = "arith.constant"() <{{value = {r + 1} : i64}}> : () -> i64',
            f'{x} = "arith.addi"(%a, {c}) : (i64, i64) -> i64',
            f'{lo} = "memref.load"(%p) : (memref<i64>) -> i64',
            f'{y} = "arith.muli"({x}, {lo}) : (i64, i64) -> i64',
            f'{a2} = "arith.subi"({acc}, {y}) : (i64, i64) -> i64',
            f'"memref.store"({a2}, %p) : (i64, memref<i64>) -> ()',
            f'{fx} = "arith.sitofp"({a2}) : (i64) -> f64',
            f'{f2} = "arith.addf"({facc}, {fx}) : (f64, f64) -> f64',
        ):
            ln += 1
            op(text, ln, 5)
        acc, facc = a2, f2
    fi, a3, cond = v(), v(), v()
    for text in (
        f'{fi} = "arith.fptosi"({facc}) : (f64) -> i64',
        f'{a3} = "arith.addi"({acc}, {fi}) : (i64, i64) -> i64',
        f'{cond} = "arith.cmpi"({a3}, %b) <{{predicate = 2 : i64}}> : (i64, i64) -> i1',
        f'"cf.cond_br"({cond}, {a3}, %a)[^then, ^else] <{{operandSegmentSizes = array<i32: 1, 1, 1>}}>'
        " : (i1, i64, i64) -> ()",
    ):
        ln += 1
        op(text, ln, 5)
    body.append("  ^then(%t: i64):")
    callee = f"f{k - 1 if k > 0 else 0}"
    r = v()
    op(f'{r} = "func.call"(%t, %b, %p) <{{callee = @{callee}}}> : (i64, i64, memref<i64>) -> i64', line + 41, 9)
    op(f'"cf.br"({r})[^join] : (i64) -> ()', line + 42, 9)
    body.append("  ^else(%e: i64):")
    ng = v()
    op(f'{ng} = "arith.subi"(%e, %e) : (i64, i64) -> i64', line + 51, 9)
    op(f'"cf.br"({ng})[^join] : (i64) -> ()', line + 52, 9)
    body.append("  ^join(%j: i64):")
    op('"func.return"(%j) : (i64) -> ()', line + 61, 5)
    out.append(
        f'  "func.func"() <{{function_type = (i64, i64, memref<i64>) -> i64, sym_name = "f{k}"}}> ({{\n'
        "  ^entry(%a: i64, %b: i64, %p: memref<i64>):\n" + "\n".join(body) + f"\n  }}) : () -> () loc({FILE}:{line}:1)"
    )
    return ops


def module_text(target_ops):
    out, ops, k = [], 0, 0
    while ops < target_ops:
        ops += function(k, out)
        k += 1
    return '"builtin.module"() ({\n' + "\n".join(out) + "\n}) : () -> ()\n", ops, k


def parser_seconds(tool, path, runs=5):
    """The smallest "Parser" wall time over `runs` reads of `path`."""
    best = None
    for _ in range(runs):
        p = subprocess.run([tool, "--mlir-timing", path, "-o", os.devnull], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(p.stderr.strip()[-500:])
        m = re.search(r"^\s*([0-9.]+)\s+\(\s*[0-9.]+%\)\s+Parser\s*$", p.stderr, re.M)
        if not m:
            raise RuntimeError("no Parser line in mlir-opt's timing report:\n" + p.stderr)
        s = float(m.group(1))
        best = s if best is None else min(best, s)
    return best


def measure(tool="mlir-opt-19"):
    """Answers {ops, functions, bytes, parse_ms} or raises; None when there is no tool."""
    tool = shutil.which(tool)
    if not tool:
        return None
    with tempfile.TemporaryDirectory(prefix="ppy-mlir-anchor-") as d:
        text, ops, funcs = module_text(TARGET_OPS)
        src, bc = os.path.join(d, "m.mlir"), os.path.join(d, "m.mlirbc")
        empty_src, empty_bc = os.path.join(d, "e.mlir"), os.path.join(d, "e.mlirbc")
        with open(src, "w") as f:
            f.write(text)
        with open(empty_src, "w") as f:
            f.write("module {\n}\n")
        for s, b in ((src, bc), (empty_src, empty_bc)):
            p = subprocess.run([tool, "--emit-bytecode", s, "-o", b], capture_output=True, text=True)
            if p.returncode != 0:
                raise RuntimeError(p.stderr.strip()[-1000:])
        parse = parser_seconds(tool, bc) - parser_seconds(tool, empty_bc)
        return {"ops": ops, "functions": funcs, "bytes": os.path.getsize(bc), "parse_ms": parse * 1e3}


if __name__ == "__main__":
    print(measure())
