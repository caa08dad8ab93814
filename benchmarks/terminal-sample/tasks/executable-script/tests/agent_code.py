"""Runs the agent's code for the tests, out of reach of the reward (docs/terminal-agents.md, "The trusted-reward rule").

The tests run as the same user as the code they check, so the process that checks must guard itself:
- it is not dumpable (PR_SET_DUMPABLE 0): the agent's code cannot ptrace it or open its /proc/<pid>/mem, fd or environ;
- it is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever the agent's code leaves running, even after setsid and a
  double fork, stays its descendant, and `stop_agent_code` kills it before the next check and before the reward;
- as root (Harbor's default verifier), the agent's code runs as nobody, so it cannot write /logs/verifier at all.
The agent's code gets its input on argv and stdin and answers on a pipe: a crash, an early exit or a time-out fails the
check, and its output past a cap is dropped. This file is the same in every bundled task that runs the agent's code.
"""

import ctypes
import os
import signal
import subprocess
import threading
import time

_PR_SET_DUMPABLE = 4
_PR_SET_CHILD_SUBREAPER = 36
_PR_SET_NO_NEW_PRIVS = 38
_NOBODY = 65534
# Output kept per stream: far above any right answer, far below the task's memory cap.
_OUTPUT_CAP = 1 << 20
_libc = ctypes.CDLL(None, use_errno=True)


def _prctl(option, value):
    if _libc.prctl(option, value, 0, 0, 0) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"prctl({option}, {value}): {os.strerror(error)}")


def guard_grader():
    """Makes this process undumpable and the subreaper of everything it starts (idempotent)."""
    _prctl(_PR_SET_DUMPABLE, 0)
    _prctl(_PR_SET_CHILD_SUBREAPER, 1)


def _drop_privileges():
    # Runs in the child between fork and exec.
    _prctl(_PR_SET_NO_NEW_PRIVS, 1)
    if os.geteuid() == 0:
        os.setgroups([])
        os.setgid(_NOBODY)
        os.setuid(_NOBODY)


def _descendants():
    """Every process whose chain of parents leads to this one."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                stat = file.read()
        except OSError:
            continue
        # The command name (field 2) may hold spaces and parentheses: the fields after it follow its last ')'.
        parents[int(entry)] = int(stat[stat.rindex(b")") + 2 :].split()[1])
    found, frontier = set(), {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier and pid not in found}
        found |= frontier
    return found


def stop_agent_code():
    """Kills and reaps every descendant of this process, until none is left (orphans come back to this subreaper)."""
    for _ in range(1000):
        pids = _descendants()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        time.sleep(0.01)
    raise RuntimeError("the agent's code keeps starting processes")


class AgentRun:
    """What one run of the agent's code did."""

    def __init__(self, exit_code, stdout, stderr, timed_out):
        self.exit_code = exit_code
        self.stdout = stdout
        self.stderr = stderr
        self.timed_out = timed_out


def _read_capped(stream, chunks):
    total = 0
    while True:
        chunk = stream.read1(65536)
        if not chunk:
            return
        if total < _OUTPUT_CAP:
            chunks.append(chunk[: _OUTPUT_CAP - total])
        total += len(chunk)


def run_agent_code(argv, stdin=b"", cwd="/", timeout=10.0):
    """Runs `argv` (the agent's program) with `stdin`, then stops everything it started; returns an AgentRun."""
    guard_grader()
    child = subprocess.Popen(
        argv,
        cwd=cwd,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_drop_privileges,
        start_new_session=True,
    )
    outputs = ([], [])
    readers = [threading.Thread(target=_read_capped, args=(stream, chunks), daemon=True) for stream, chunks in zip((child.stdout, child.stderr), outputs)]
    for reader in readers:
        reader.start()
    try:
        child.stdin.write(stdin)
        child.stdin.close()
    except BrokenPipeError:
        pass
    timed_out = False
    try:
        child.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
    # A background process may still hold the pipes open: the readers end once it is dead.
    stop_agent_code()
    for reader in readers:
        reader.join()
    return AgentRun(child.returncode, b"".join(outputs[0]).decode("utf-8", "replace"), b"".join(outputs[1]).decode("utf-8", "replace"), timed_out)
