#!/usr/bin/env python3
"""The LLVM road's benchmark (not a test): every figure is the processor time of a
process of its own (tools/bench/proc_time.py) and printed as a ratio.

    llvm_bench.py --ppy BUILD/bin/ppy [--repeat N] [--kernels-only] [--baseline OTHER/bin/ppy]

- compiled code (`ppy build --standalone -O2`, with guards and `--unsafe`) against
  python3 and PyPy (`pypy3`, where installed) on four loop programs
  (tools/bench/llvm/*.ppy), and against the same algorithm in C (`*.c`) compiled by
  clang-19 -O2 (or clang, or cc, as found) and by gcc -O2 (issue 35's targets: ppy
  within 1.2x of clang with its guards, 1.05x with --unsafe);
- what tracebacks cost (issue 34's target: within 2%): the guarded build against the
  same build with `--no-traceback` (no frames linked; a recursive function still
  counts its depth), `frames` = ppy / no-traceback, each figure a process of its own;
- compile time beside run time: a `ppy build` of each kernel (artifact cache off)
  against the C compiler on the same algorithm;
- `ppy run examples/hello.ppy` cold (empty cache) and warm (cached objects)
  against `ppy run --interp`;
- code generation of a ~100k-op module at -O2, per 1k ops (`ppy emit object`
  less `ppy emit ir` of the same module, both with an empty cache).

`--kernels-only` stops after the loop programs; `--baseline` prints, after
them, a before/after table of the executables another ppy builds (a checkout
of main) against this one's, each figure the best of `--repeat` processes,
the two interleaved so that the machine's load falls on both alike.
"""

import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import proc_time  # noqa: E402
ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = ["int_loop", "float_loop", "list_loop", "calls"]


def timed(cmd, cwd=None, env=None):
    """Processor seconds of one run of `cmd` (tools/bench/proc_time.py), and its stdout."""
    elapsed, p = proc_time.run(cmd, cwd=cwd, env=env)
    if p.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed ({p.returncode}): {p.stderr[-800:]}")
    return elapsed, p.stdout


def best(cmd, repeat, cwd=None, before=None):
    times, out = [], None
    for _ in range(repeat):
        if before:
            before()
        t, out = timed(cmd, cwd)
        times.append(t)
    return min(times), out


def interleaved(cmds, repeat):
    """The best of `repeat` processor times of each command, run in turns."""
    times = [[] for _ in cmds]
    for _ in range(repeat):
        for k, cmd in enumerate(cmds):
            times[k].append(timed(cmd)[0])
    return [min(t) for t in times]


def c_compiler():
    for name in ("clang-19", "clang", "cc"):
        path = shutil.which(name)
        if path:
            return name, path
    raise SystemExit("bench: no C compiler")


def compare(before_ppy, after_ppy, work, repeat, cc):
    """Before/after of each kernel, guarded and --unsafe, with clang's time beside."""
    print(f"\n== before ({before_ppy}) / after ({after_ppy}), best of {repeat}, ms")
    print(f"{'program':<12} {'mode':<7} {'before':>8} {'after':>8} {'after/before':>13} {'C':>7} "
          f"{'before/C':>9} {'after/C':>8}")
    for name in PROGRAMS:
        src = os.path.join(HERE, "llvm", name + ".ppy")
        cexe = os.path.join(work, name + "-c")
        for label, extra in (("safe", []), ("unsafe", ["--unsafe"])):
            exes = []
            for tag, ppy in (("before", before_ppy), ("after", after_ppy)):
                out = os.path.join(work, f"{name}-{label}-{tag}")
                subprocess.run([ppy, "build", src, "--standalone", "-O", "2", "-o", out] + extra, check=True,
                               capture_output=True)
                exes.append(os.path.join(out, name))
            times = {0: [], 1: [], 2: []}
            for _ in range(repeat):  # interleaved: a burst of load falls on all three
                for k, cmd in enumerate([exes[0], exes[1], cexe]):
                    times[k].append(timed([cmd])[0])
            t0, t1, tc = (min(times[k]) * 1000 for k in range(3))
            print(f"{name:<12} {label:<7} {t0:>8.2f} {t1:>8.2f} {t1 / t0:>12.3f}x {tc:>7.2f} {t0 / tc:>8.2f}x "
                  f"{t1 / tc:>7.2f}x")


def compile_times(ppy, cc, cname, work, repeat):
    """Compile time beside run time (issue 35): a default `ppy build` of each kernel
    (the artifact cache off, so it compiles; the runtime's object is the user cache's,
    as in any build after the first) against the C compiler on the same algorithm."""
    print(f"\n== compile time (processor s, best of {repeat}; ppy build --standalone -O2 --no-cache; "
          f"{cname} -O2)")
    print(f"{'program':<12} {'ppy build s':>12} {'C s':>8} {'ppy/C':>7}")
    for name in PROGRAMS:
        src = os.path.join(HERE, "llvm", name + ".ppy")
        out = os.path.join(work, f"{name}-compile")
        t_build = min(timed([ppy, "build", src, "--standalone", "-O", "2", "--no-cache", "-o", out])[0]
                      for _ in range(repeat))
        cexe = os.path.join(work, name + "-compile-c")
        t_cc = min(timed([cc, "-O2", os.path.join(HERE, "llvm", name + ".c"), "-o", cexe, "-lm"])[0]
                   for _ in range(repeat))
        print(f"{name:<12} {t_build:>12.3f} {t_cc:>8.3f} {t_build / t_cc:>6.2f}x")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--kernels-only", action="store_true")
    ap.add_argument("--baseline", help="another ppy, for a before/after table of the kernels")
    args = ap.parse_args()
    ppy = os.path.abspath(args.ppy)
    work = tempfile.mkdtemp(prefix="ppy-llvm-bench-")
    cname, cc = c_compiler()
    try:
        pypy = shutil.which("pypy3")
        print(f"== llvm_bench (best of {args.repeat}; C by {cname} -O2; PyPy: {pypy or 'not installed'})")
        gcc = shutil.which("gcc")
        print(f"{'program':<12} {'python3 s':>10} {'pypy3 s':>8} {'ppy s':>9} {'unsafe s':>9} {'notb s':>9} "
              f"{'C s':>8} {'gcc s':>8} {'py/ppy':>8} {'py/unsafe':>10} {'pypy/ppy':>9} {'ppy/C':>7} "
              f"{'unsafe/C':>9} {'ppy/gcc':>8} {'unsafe/gcc':>11} {'frames':>7}")
        for name in PROGRAMS:
            src = os.path.join(HERE, "llvm", name + ".ppy")
            exes = {}
            for label, extra in (("safe", []), ("unsafe", ["--unsafe"]), ("notb", ["--no-traceback"])):
                out = os.path.join(work, f"{name}-{label}")
                subprocess.run([ppy, "build", src, "--standalone", "-O", "2", "-o", out] + extra, check=True,
                               capture_output=True)
                exes[label] = os.path.join(out, name)
            cexe = os.path.join(work, name + "-c")
            subprocess.run([cc, "-O2", os.path.join(HERE, "llvm", name + ".c"), "-o", cexe, "-lm"], check=True)
            t_py, out_py = best([sys.executable, src], 1)
            t_pypy, out_pypy = best([pypy, src], 1) if pypy else (float("nan"), out_py)
            gexe = None
            if gcc:
                gexe = os.path.join(work, name + "-gcc")
                subprocess.run([gcc, "-O2", os.path.join(HERE, "llvm", name + ".c"), "-o", gexe, "-lm"], check=True)
            # Interleaved, so that a burst of the machine's load falls on all alike
            # (the frames figure is a ratio of two of them, against a 2% target).
            cmds = [exes["safe"], exes["unsafe"], exes["notb"], cexe] + ([gexe] if gexe else [])
            t = interleaved([[c] for c in cmds], args.repeat)
            t_safe, t_unsafe, t_notb, t_c = t[:4]
            t_gcc = t[4] if gexe else float("nan")
            out_safe = timed([exes["safe"]])[1]
            if out_py != out_safe or out_pypy != out_py:
                print(f"  {name}: ppy printed {out_safe!r}, python3 {out_py!r}, pypy3 {out_pypy!r}")
            print(f"{name:<12} {t_py:>10.3f} {t_pypy:>8.3f} {t_safe:>9.4f} {t_unsafe:>9.4f} {t_notb:>9.4f} "
                  f"{t_c:>8.4f} {t_gcc:>8.4f} {t_py / t_safe:>7.1f}x {t_py / t_unsafe:>9.1f}x "
                  f"{t_pypy / t_safe:>8.1f}x {t_safe / t_c:>6.2f}x {t_unsafe / t_c:>8.2f}x {t_safe / t_gcc:>7.2f}x "
                  f"{t_unsafe / t_gcc:>10.2f}x {t_safe / t_notb:>6.3f}x")
        compile_times(ppy, cc, cname, work, args.repeat)

        if args.baseline:
            compare(os.path.abspath(args.baseline), ppy, work, args.repeat, cc)
        if args.kernels_only:
            return

        # ppy run of hello: cold (empty cache), warm, and the interpreter.
        hello_dir = os.path.join(work, "hello")
        os.makedirs(hello_dir)
        hello = os.path.join(hello_dir, "hello.ppy")
        shutil.copy(os.path.join(ROOT, "examples", "hello.ppy"), hello)
        cache = os.path.join(hello_dir, ".ppy-cache")
        cold, _ = best([ppy, "run", hello], args.repeat, before=lambda: shutil.rmtree(cache, ignore_errors=True))
        timed([ppy, "run", hello])
        warm, _ = best([ppy, "run", hello], args.repeat)
        interp, _ = best([ppy, "run", "--interp", hello], args.repeat)
        print(f"\nppy run hello.ppy: cold {cold * 1000:.1f} ms, warm {warm * 1000:.1f} ms, --interp "
              f"{interp * 1000:.1f} ms; cold/interp {cold / interp:.2f}x, warm/interp {warm / interp:.2f}x")

        # Code generation per 1k ops of a big module at -O2.
        big_dir = os.path.join(work, "big")
        os.makedirs(big_dir)
        big = os.path.join(big_dir, "big.ppy")
        with open(big, "w") as f:
            for k in range(800):
                f.write(f"def f{k}(a: int, b: float) -> float:\n    x = a * {k + 1} + 3\n    y = b * 0.5 + x\n")
                for j in range(12):
                    f.write(f"    y = y * 1.0001 + (x % {j + 7}) - {j}.0\n    x = x + {j}\n")
                f.write("    return y + x\n\n\n")
        big_cache = os.path.join(big_dir, ".ppy-cache")
        ir_out = os.path.join(work, "big.ppyir")
        clear = lambda: shutil.rmtree(big_cache, ignore_errors=True)
        t_ir, _ = best([ppy, "emit", "ir", big, "-O", "2", "-o", ir_out], 1, before=clear)
        with open(ir_out) as f:
            ops = sum(1 for line in f if line.startswith("    ") and not line.strip().startswith("^"))
        t_obj, _ = best([ppy, "emit", "object", big, "-O", "2", "-o", os.path.join(work, "big.o")], 1, before=clear)
        codegen = max(t_obj - t_ir, 0.0)
        print(f"codegen at -O2: {ops} ops in {codegen:.2f} s ({codegen / (ops / 1000) * 1000:.2f} ms per 1k ops); "
              f"frontend and shared passes {t_ir:.2f} s")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
