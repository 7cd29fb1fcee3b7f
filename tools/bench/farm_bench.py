#!/usr/bin/env python3
"""The build farm's benchmark (not a test; docs/farm.md): every figure is a `ppy`
run in a process of its own, best of --repeat, printed with its ratio.

    farm_bench.py --ppy BUILD/bin/ppy [--repeat N] [--busy-ms B] [--jobs J]

1. A cold `ppy emit toy -j J` of a 100-module project (J calls at once) through
   one server and through three (`ppy-test-farm --busy-ms B`: the toy, each call
   first keeping a processor busy B ms, standing for a backend that computes),
   and the same through one server with nothing to compute (the driver's part).
   The processors this machine has are printed beside them: servers on one
   machine share them, which is what bounds three against one here.
2. A `ppy build` of a second checkout of the same project, in another folder,
   served entirely from the remote cache (nginx with
   tools/farm/remote-cache.nginx.conf on loopback, its local cache empty),
   against its local no-op rebuild (everything in its local cache), and a cold
   build through the local helper for scale.
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
MODULES = 100
TOKEN = "bench-token"


def write_project(root, extra=""):
    """A project of MODULES small modules (app.m000 ...) at `root`."""
    os.makedirs(os.path.join(root, "src", "app"), exist_ok=True)
    for i in range(MODULES):
        with open(os.path.join(root, "src", "app", f"m{i:03d}.ppy"), "w") as f:
            f.write(f"def f{i}(x: int) -> int:\n    y = x * {i + 2}\n    return y + {i}\n")
    write_pyproject(root, extra)


def write_pyproject(root, extra):
    with open(os.path.join(root, "pyproject.toml"), "w") as f:
        f.write('[tool.ppy]\nsource-roots = ["src"]\n\n' + extra)


def timed(cmd, cwd=None, env=None, expect=None):
    """Wall seconds of one run; it must succeed and, given `expect`, say it on stderr."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    out, err = p.communicate()
    wall = time.perf_counter() - start
    if p.returncode != 0:
        raise SystemExit(f"bench: {' '.join(cmd)} failed ({p.returncode}): {err[-800:]}")
    if expect and expect not in err:
        raise SystemExit(f"bench: {' '.join(cmd)} did not say {expect!r}:\n{err[-800:]}")
    return wall


def best(cmd, repeat, before=None, cwd=None, env=None, expect=None):
    times = []
    for _ in range(repeat):
        if before:
            before()
        times.append(timed(cmd, cwd=cwd, env=env, expect=expect))
    return min(times)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def wait_port(port, proc, what):
    until = time.time() + 10
    while time.time() < until and proc.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.02)
    raise SystemExit(f"bench: {what} did not start")


class Processes:
    """What the bench starts, stopped (by its own pid) when it ends."""

    def __init__(self):
        self.procs = []

    def start(self, cmd, **kw):
        p = subprocess.Popen(cmd, **kw)
        self.procs.append(p)
        return p

    def stop(self):
        for p in self.procs:
            if p.poll() is None:
                p.kill()
            p.wait()


def start_server(procs, server, busy_ms, work):
    out = os.path.join(work, f"server-{len(procs.procs)}.out")
    with open(out, "w") as f:
        p = procs.start([server, "--busy-ms", str(busy_ms), "--listen", "127.0.0.1:0", "--insecure"], stdout=f,
                        stderr=subprocess.DEVNULL)
    for _ in range(1000):
        text = open(out).read()
        if text.startswith("listening ") and text.endswith("\n"):
            return text.split()[1]
        if p.poll() is not None:
            break
        time.sleep(0.01)
    raise SystemExit("bench: ppy-test-farm did not start")


def farm_table(endpoints):
    listed = ", ".join(f'"{e}"' for e in endpoints)
    return f"[tool.ppy.backends.toy]\nendpoints = [{listed}]\ntls-insecure = true\n"


def through_servers(args, ppy, server, work, procs, env):
    """Part 1: the cold build through one server and through three."""
    busy = [start_server(procs, server, args.busy_ms, work) for _ in range(3)]
    idle = start_server(procs, server, 0, work)
    proj = os.path.join(work, "servers")
    write_project(proj)
    out = os.path.join(work, "emit-out") + "/"

    def cold():
        shutil.rmtree(os.path.join(proj, ".ppy-cache"), ignore_errors=True)
        shutil.rmtree(out, ignore_errors=True)

    def run(endpoints):
        write_pyproject(proj, farm_table(endpoints))
        return best([ppy, "emit", "toy", proj, "-j", str(args.jobs), "-o", out], args.repeat, before=cold, env=env)

    one, three, driver = run(busy[:1]), run(busy), run([idle])
    cores = os.cpu_count() or 1
    floor = MODULES * args.busy_ms / 1000 / cores  # the modules' computing, on these processors
    print(f"== farm_bench: {MODULES}-module cold `ppy emit toy -j {args.jobs}` ({args.jobs} calls at once, "
          f"each module {args.busy_ms} ms of processor time); best of {args.repeat}; {cores} processors")
    print(f"{'through':<34} {'s':>8}")
    print(f"{'one server':<34} {one:8.3f}")
    print(f"{'three servers':<34} {three:8.3f}")
    print(f"{'one server, nothing to compute':<34} {driver:8.3f}")
    print(f"one/three: {one / three:.2f}x")
    print(f"What limits it: the modules' computing ({MODULES} x {args.busy_ms} ms) takes at least {floor:.2f} s "
          f"on {cores} processors wherever the servers run on this machine, on top of the driver's own part "
          f"(compile, send, write: {driver:.2f} s); three servers here share the same {cores} processors with "
          f"each other and the driver, so they cannot beat one. A farm of machines divides the computing by "
          f"their processors, not the driver's part.")


def start_cache(procs, work):
    nginx = next((p for p in ("/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx") if os.access(p, os.X_OK)),
                 None)
    if not nginx:
        return None
    run = os.path.join(work, "nginx")
    os.makedirs(os.path.join(run, "store"))
    port = free_port()
    conf = open(os.path.join(ROOT, "tools", "farm", "remote-cache.nginx.conf")).read()
    for name, value in (("@RUN@", run), ("@LISTEN@", f"127.0.0.1:{port}"), ("@STORE@", os.path.join(run, "store")),
                        ("@TOKEN@", TOKEN)):
        conf = conf.replace(name, value)
    with open(os.path.join(run, "nginx.conf"), "w") as f:
        f.write(conf)
    p = procs.start([nginx, "-e", os.path.join(run, "error.log"), "-c", os.path.join(run, "nginx.conf"), "-g",
                     "daemon off; master_process off;"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL)
    wait_port(port, p, "nginx")
    return f"http://127.0.0.1:{port}/ppy"


def second_checkout(args, ppy, work, procs, env):
    """Part 2: a second checkout served from the remote cache, against its local no-op rebuild."""
    url = start_cache(procs, work)
    if not url:
        print("== farm_bench: the remote cache half needs nginx (tools/setup installs it); skipped")
        return
    a, b = os.path.join(work, "checkout-a"), os.path.join(work, "checkout-b")
    write_project(a)
    write_project(b)
    renv = dict(env, PPY_REMOTE_CACHE=url, PPY_REMOTE_CACHE_TOKEN=TOKEN)
    build = [ppy, "build", ".", "--backend", "toy", "-o", os.path.join(work, "build-out")]
    # The first checkout fills the remote cache.
    timed(build, cwd=a, env=renv, expect="built by toy")

    def empty_local():
        shutil.rmtree(os.path.join(b, ".ppy-cache"), ignore_errors=True)

    cold = best(build, args.repeat, before=empty_local, cwd=b, env=dict(env, PPY_REMOTE_CACHE=""),
                expect=f"({MODULES} built by toy")
    remote = best(build, args.repeat, before=empty_local, cwd=b, env=renv,
                  expect=f"({MODULES} from the remote cache)")
    noop = best(build, args.repeat, cwd=b, env=renv, expect=f"({MODULES} from the local cache)")
    # Module by module (`ppy emit`: one entry per module, 100 of them).
    emit = [ppy, "emit", "toy", ".", "-o", os.path.join(work, "emit-b") + "/"]
    timed(emit, cwd=a, env=renv)
    emit_remote = best(emit, args.repeat, before=empty_local, cwd=b, env=renv)
    emit_noop = best(emit, args.repeat, cwd=b, env=renv)
    print(f"== farm_bench: a second checkout of the {MODULES}-module project (toy as a local helper; "
          f"nginx WebDAV on loopback as the remote cache); best of {args.repeat}")
    print(f"{'ppy build in the second checkout':<46} {'s':>8}")
    print(f"{'cold, no remote cache (the helper builds)':<46} {cold:8.3f}")
    print(f"{'all from the remote cache (local cache empty)':<46} {remote:8.3f}")
    print(f"{'local no-op rebuild (all in the local cache)':<46} {noop:8.3f}")
    print(f"{'ppy emit, all from the remote cache (100 entries)':<46} {emit_remote:8.3f}")
    print(f"{'ppy emit, local no-op':<46} {emit_noop:8.3f}")
    print(f"remote/no-op: build {remote / noop:.2f}x, emit {emit_remote / emit_noop:.2f}x; "
          f"cold/remote: build {cold / remote:.2f}x")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ppy", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--busy-ms", type=int, default=50)
    ap.add_argument("--jobs", type=int, default=6)
    args = ap.parse_args()
    ppy = os.path.abspath(args.ppy)
    build = os.path.dirname(os.path.dirname(ppy))
    server = os.path.join(build, "tests", "farm", "ppy-test-farm")
    if not os.access(server, os.X_OK):
        raise SystemExit(f"bench: {server} is not built (cmake --build {build} --target ppy-test-farm)")
    env = dict(os.environ)  # the toy is found where the build installs it (build/lib/ppy/backends)
    env.pop("PPY_REMOTE_CACHE", None)
    work = tempfile.mkdtemp(prefix="ppy-farm-bench-")
    procs = Processes()
    try:
        through_servers(args, ppy, server, work, procs, env)
        second_checkout(args, ppy, work, procs, env)
    finally:
        procs.stop()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
