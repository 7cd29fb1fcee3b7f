"""Runs every figure of the given Google Benchmark executables in a process of its own
(issue 20: no figure is measured on a heap another benchmark warmed), prints one line
per figure, then the summary: each of issue 20's figures beside its target, and the
MLIR anchor beside the decode figure. Ratios are taken across the separate runs.

Usage: figures.py [--summary FILE] [--issue20] BIN... [-- benchmark args...], e.g.
-- --benchmark_filter=Proto. The summary goes to stdout and, with --summary, to FILE.
--issue20 runs only the benchmarks issue 20's figures come from (a few minutes).
"""

import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mlir_anchor  # noqa: E402

# Today's clone of ir_bench's 100k-op module (BM_Clone alone in its process, this
# 2-core machine loaded by other jobs, 2026-12-05: 44.8-61.5 ms over four runs, about
# 50): the baseline of issue 20's "clone >= 3x faster than today".
CLONE_BASELINE_MS = 50.0

# Heap allocations and live bytes per op before issue 20's arena (ir_bench alone,
# 5bddb6a: decode 3.77 allocs/op 324 B/op, clone 6.61/327, build 4.88/327).
ALLOC_BASELINES = {"BM_ProtoRead": (3.77, 324), "BM_Clone": (6.61, 327), "BM_Build": (4.88, 327)}

# The benchmarks issue 20's figures come from, by executable (--issue20).
ISSUE20_FILTERS = {
    "ir_bench": "^BM_(ProtoRead|ProtoWrite|Clone|Build)$",
    "host_bench": "^BM_Host_(IrTransfer/1000000|EmitRatio/.*)",
    "driver_bench": ".",
}

failures = []  # names of benchmarks whose process failed
said = set()  # the fixtures' one-line descriptions ("module: ..."), printed once


def run_each(exe, extra):
    """{name: the benchmark's JSON entry} for every benchmark `exe` lists, each run alone."""
    listed = subprocess.run([exe, "--benchmark_list_tests", *extra], capture_output=True, text=True)
    if listed.returncode != 0:
        print(f"  {os.path.basename(exe)}: could not list its benchmarks:\n{listed.stderr}", file=sys.stderr)
        failures.append(exe)
        return {}
    results = {}
    # The names, one a line, up to the first blank one (host_bench prints its summary after).
    names = []
    for line in listed.stdout.splitlines():
        if not line.strip():
            break
        names.append(line.strip())
    for name in names:
        with tempfile.NamedTemporaryFile(suffix=".json") as out:
            filt = "^" + re.sub(r"([.\[\]()*+?^$|\\{}])", r"\\\1", name) + "$"
            p = subprocess.run(
                [exe, *extra, "--benchmark_filter=" + filt, "--benchmark_out=" + out.name,
                 "--benchmark_out_format=json"],
                capture_output=True, text=True)
            try:
                entries = [b for b in json.load(open(out.name))["benchmarks"] if b.get("run_type") != "aggregate"]
            except (ValueError, KeyError):
                entries = []
        if p.returncode != 0 or not entries:
            print(f"  {name}: failed (exit {p.returncode})\n{p.stdout[-2000:]}{p.stderr[-2000:]}", file=sys.stderr)
            failures.append(name)
            continue
        for note in re.findall(r"^module: .*$", p.stderr, re.M):
            if note not in said:
                said.add(note)
                print("  " + note)
        b = entries[-1]
        results[name] = b
        if b.get("error_occurred"):
            print(f"  {name:56} error: {b.get('error_message')}")
            continue
        line = f"  {name:56} {b['real_time']:12.3f} {b['time_unit']}"
        if "bytes_per_second" in b:
            line += f"  {b['bytes_per_second'] / 1e6:9.1f} MB/s"
        for k in ("ratio", "wall_ratio", "driver_cpu_ms", "helper_cpu_ms", "inproc_cpu_ms", "cpu_MBps", "median_ms",
                  "p95_ms", "decode_ms", "clone_ms", "helper_ms", "inproc_ms", "allocs/op", "bytes/op", "cpu_ms"):
            if k in b:
                line += f"  {k}={b[k]:.3f}"
        print(line, flush=True)
    return results


def find(results, prefix):
    """The entry named `prefix` or `prefix/...` (its iterations and real_time suffixes)."""
    for name, b in results.items():
        if (name == prefix or name.startswith(prefix + "/")) and not b.get("error_occurred"):
            return b
    return None


def ms(b, key="real_time"):
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b["time_unit"]]
    return b[key] * scale


def summary(results, anchor, out, issue20=False):
    rows = []  # (figure, measured, target, met: True/False/None)

    def add(figure, value, fmt, target, ok):
        rows.append((figure, "-" if value is None else fmt.format(value), target, None if value is None else ok(value)))

    def mbps(prefix):
        b = find(results, prefix)
        return b["bytes_per_second"] / 1e6 if b and "bytes_per_second" in b else None

    def counter(prefix, key):
        b = find(results, prefix)
        return b.get(key) if b else None

    def time_ms(prefix):
        b = find(results, prefix)
        return ms(b) if b else None

    def ratio(a, b):
        return a / b if a is not None and b else None

    add("proto->IR decode, 100k ops (MB/s)", mbps("BM_ProtoRead"), "{:.1f}", ">= 400", lambda v: v >= 400)
    add("IR->proto encode, 100k ops (MB/s)", mbps("BM_ProtoWrite"), "{:.1f}", ">= 500", lambda v: v >= 500)
    # ir_bench's figures are of one thread: its processor time, which a loaded
    # machine does not stretch (MB/s are so too), the wall time beside it.
    clone_b = find(results, "BM_Clone")
    clone = ms(clone_b, "cpu_time") if clone_b else None
    if CLONE_BASELINE_MS:
        add("clone, 100k ops (ms, cpu)", clone, "{:.2f}", f"<= {CLONE_BASELINE_MS / 3:.2f} (today {CLONE_BASELINE_MS}/3)",
            lambda v: v <= CLONE_BASELINE_MS / 3)
    else:
        add("clone, 100k ops (ms, cpu)", clone, "{:.2f}", "3x faster than today (no baseline)", lambda v: None)
    add("  the same in wall time", ms(clone_b) if clone_b else None, "{:.2f}", f"<= {CLONE_BASELINE_MS / 3:.2f}",
        lambda v: v <= CLONE_BASELINE_MS / 3)
    add("op-dense round trip via helper, 1M ops (MB/s)", mbps("BM_Host_IrTransfer/1000000"), "{:.1f}", ">= 300",
        lambda v: v >= 300)
    add("  the same per processor time of both sides (MB/s)", counter("BM_Host_IrTransfer/1000000", "cpu_MBps"),
        "{:.1f}", ">= 300", lambda v: v >= 300)
    for name, (allocs, size) in ALLOC_BASELINES.items():
        what = {"BM_ProtoRead": "decode", "BM_Clone": "clone", "BM_Build": "build"}[name]
        add(f"{what}: heap allocations per op", counter(name, "allocs/op"), "{:.2f}", f"fewer (before {allocs})",
            lambda v, allocs=allocs: v < allocs)
        add(f"{what}: live bytes per op", counter(name, "bytes/op"), "{:.0f}", f"fewer (before {size})",
            lambda v, size=size: v < size)
    for ops, limit in (("1000", 1.3), ("10000", 1.3), ("1000000", 1.1)):
        add(f"emit out-of-process/in-process @{ops} ops (cpu)", counter("BM_Host_EmitRatio/" + ops, "ratio"), "{:.2f}",
            f"<= {limit}", lambda v, limit=limit: v <= limit)
        add(f"  the same in wall time", counter("BM_Host_EmitRatio/" + ops, "wall_ratio"), "{:.2f}",
            f"<= {limit}", lambda v, limit=limit: v <= limit)
    add("no-op rebuild, 100 modules (ms, wall)", time_ms("BM_NoOpRebuild"), "{:.1f}", "<= 50", lambda v: v <= 50)
    add("  the same in processor time, ppy + helper (ms)", counter("BM_NoOpRebuild", "cpu_ms"), "{:.1f}", "<= 50",
        lambda v: v <= 50)
    add("cold build, heavy 100 modules, -j1 / -j2 (wall)", ratio(time_ms("BM_ColdBuild/j:1"),
                                                                 time_ms("BM_ColdBuild/j:2")),
        "{:.2f}", ">= 1.8", lambda v: v >= 1.8)
    add("  processor time, -j2 / -j1 (work -j2 adds)", ratio(counter("BM_ColdBuild/j:2", "cpu_ms"),
                                                           counter("BM_ColdBuild/j:1", "cpu_ms")),
        "{:.2f}", "about 1 (wall needs 2 idle cores)", lambda v: None)
    # host_bench's own targets (issue 5), now across separate runs (not run with --issue20).
    if not issue20:
        add("host cold start median (ms)", counter("BM_Host_ColdStart", "median_ms"), "{:.2f}", "< 5", lambda v: v < 5)
        add("cold start / bare gRPC helper", ratio(counter("BM_Host_ColdStart", "median_ms"),
                                                   counter("BM_Baseline_BareGrpcHelper", "median_ms")),
            "{:.2f}", "< 1", lambda v: v < 1)
        add("small call / bare gRPC unary", ratio(time_ms("BM_Host_SmallCall"), time_ms("BM_Baseline_BareGrpcUnary")),
            "{:.2f}", "<= 1", lambda v: v <= 1)
        add("data transfer (MB/s)", mbps("BM_Host_DataTransfer"), "{:.1f}", ">= 1000", lambda v: v >= 1000)

    decode = find(results, "BM_ProtoRead")
    if isinstance(anchor, dict):
        add("MLIR 19 bytecode read, same shape (ms)", anchor["parse_ms"], "{:.1f}",
            f"anchor ({anchor['ops']} ops, {anchor['bytes']} B .mlirbc)", lambda v: None)
        if decode:
            add("our decode (cpu) / MLIR's read (time)", ratio(ms(decode, "cpu_time"), anchor["parse_ms"]), "{:.2f}",
                "MLIR is a floor: < 1 is faster", lambda v: None)
    else:
        rows.append(("MLIR 19 bytecode read", "skipped", anchor or "no mlir-opt-19", None))

    lines = ["summary (issue 20; each figure from a process of its own, ratios across those runs)"]
    w = max(len(r[0]) for r in rows)
    lines.append(f"  {'figure':{w}}  {'measured':>10}  {'target':40}  met?")
    for figure, value, target, met in rows:
        mark = {True: "yes", False: "NO", None: "-"}[met]
        lines.append(f"  {figure:{w}}  {value:>10}  {target:40}  {mark}")
    text = "\n".join(lines) + "\n"
    print("\n" + text, end="")
    if out:
        with open(out, "w") as f:
            f.write(text)


def main(argv):
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    out = None
    if argv[:1] == ["--summary"]:
        out, argv = argv[1], argv[2:]
    issue20 = argv[:1] == ["--issue20"]
    if issue20:
        argv = argv[1:]
    results = {}
    for exe in argv:
        name = os.path.basename(exe)
        args = extra
        if issue20:
            if name not in ISSUE20_FILTERS:
                continue
            args = ["--benchmark_filter=" + ISSUE20_FILTERS[name], *extra]
        print(f"== {name} (each benchmark in a process of its own)", flush=True)
        results.update(run_each(exe, args))
    try:
        anchor = mlir_anchor.measure()
        if anchor is None:
            anchor = "mlir-opt-19 not installed (Debian mlir-19-tools)"
    except (RuntimeError, OSError) as e:
        anchor = f"mlir-opt-19 failed: {str(e)[:60]}"
    summary(results, anchor, out, issue20)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
