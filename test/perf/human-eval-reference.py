"""The unsandboxed reference harness, rebuilt after openai/human-eval's execution.py for a side-by-side timing.

Per problem: a multiprocessing.Manager list plus a forked Process that execs the program and its checks in-process
(in a temporary directory, behind its reliability guard, output swallowed, under an interval timer),
joined with timeout + 1 s; problems spread over a ThreadPoolExecutor of N workers (argument 1, default 4 as in
human-eval). Input: JSON lines {program, checks} on stdin (checks: Python code that raises on failure). Prints
{"seconds": wall, "passed": n, "total": n}.
"""
import contextlib
import io
import json
import multiprocessing
import os
import shutil
import signal
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

TIMEOUT = 3.0


def reliability_guard():
    """As human-eval's guard: imports shutil and subprocess in the child and disables destructive functions."""
    import builtins
    import faulthandler
    import shutil
    import subprocess

    faulthandler.disable()
    builtins.help = None
    for name in ("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty", "killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown", "chroot"):
        setattr(os, name, None)
    shutil.rmtree = shutil.move = shutil.chown = None
    subprocess.Popen = None


def unsafe_execute(program, result):
    # As human-eval: a temporary working directory, swallowed output and a per-check timer around exec.
    with tempfile.TemporaryDirectory() as directory:
        os.chdir(directory)
        rmtree, rmdir, chdir = shutil.rmtree, os.rmdir, os.chdir
        reliability_guard()
        signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                exec(program, {})
            result.append("passed")
        except BaseException as error:
            result.append("failed: %r" % (error,))
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            shutil.rmtree, os.rmdir, os.chdir = rmtree, rmdir, chdir


def check_correctness(program):
    manager = multiprocessing.Manager()
    result = manager.list()
    process = multiprocessing.Process(target=unsafe_execute, args=(program, result))
    process.start()
    process.join(timeout=TIMEOUT + 1)
    if process.is_alive():
        process.kill()
    outcome = result[0] if result else "timed out"
    manager.shutdown()
    return outcome == "passed"


def main():
    problems = [json.loads(line) for line in sys.stdin if line.strip()]
    started = time.perf_counter()
    workers = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    with ThreadPoolExecutor(max_workers=workers) as pool:
        outcomes = list(pool.map(lambda problem: check_correctness(problem["program"] + "\n" + problem["checks"]), problems))
    print(json.dumps({"seconds": time.perf_counter() - started, "passed": sum(outcomes), "total": len(outcomes)}))


if __name__ == "__main__":
    main()
