"""Processor time of one command, run in a process of its own (for the benchmarks).

Processor time is user + system time of the process and of every descendant it
waited for. Not wall time: on a shared 2-core machine another job's load stretches
wall time by whatever it takes, and what these benchmarks compare (a program, a
compiler run) is the work a command does, not how long it waited for a core.
"""

import resource
import subprocess


def run(cmd, cwd=None, env=None):
    """(processor seconds, subprocess.CompletedProcess) of one run of `cmd`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), p


def best_of(cmd, repeat, cwd=None, env=None):
    """(best processor seconds, stdout) of `cmd` run `repeat` times, each run a
    process of its own; a run that fails stops the benchmark with its stderr."""
    best, out = None, None
    for _ in range(repeat):
        elapsed, p = run(cmd, cwd=cwd, env=env)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}: {p.stderr[-800:]}")
        best = elapsed if best is None else min(best, elapsed)
        out = p.stdout
    return best, out
