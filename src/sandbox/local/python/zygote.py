"""The fork server of one sandbox slot: starts once, pre-imports, and forks a fresh process per program run.

Argument: a JSON object {scratch, memory_bytes, file_bytes, open_files, processes, site_packages, slot}.
fd 0: jobs from the grader, one JSON line each ({id, mode, program, stdin?, fn_name?, idle_ms, deadline_ms,
cpu_seconds, output_bytes, stderr_bytes}) or {"stop": true}. fd 1: JSON lines to the grader ({"type": "ready"},
{"type": "record", "line"}, {"type": "done", ..., "stdout_bytes": n} followed by n raw bytes). fd 3: the checkers'
parts of the jobs (test code, arguments), which this process never reads: only the forked checker does, so no
forked program can find test code in memory it shares with this process.

Per job: the program runs in a forked child that gets its own pipes, rlimits, process group and seccomp filter
before its code loads; for function-call and assert jobs the slot's checker (checker.py, forked from this process
once and again whenever it dies) receives the program's two call pipes over a socket. Afterwards the program is
killed and reaped and the scratch directory is emptied, so nothing of a program carries to the next job.

Programs are not forked from this process but from the template (_Template), a copy of it made before the first job
that only ever forks and reaps: this process reads every job's program, stdin, output and records, and freed memory
keeps its bytes, so a program forked from here could scan its own memory for earlier candidates' programs and answers
(other samples of the same problem) and hand one in as its own. The template never holds any of them: it receives
each job's descriptors, the job itself in a memory file the child reads, and sends back the child's pid and status.
"""
import atexit
import fcntl
import gc
import json
import os
import resource
import select
import signal
import socket
import sys
import time

CONFIG = json.loads(sys.argv[1])
# -I leaves the script's directory off sys.path; site-packages come from the config (-S skips site.py).
sys.path[:0] = [os.path.dirname(os.path.abspath(__file__))]
sys.path.extend(CONFIG["site_packages"])

import checker  # noqa: E402
import program_host  # noqa: E402
import seccomp_filter  # noqa: E402

# Modules programs and tests import most; importing them once here saves each forked run their import time.
for _name in ("typing", "collections", "math", "itertools", "functools", "heapq", "bisect", "string", "re", "random", "copy", "fractions", "decimal"):
    try:
        __import__(_name)
    except ImportError:
        pass
# CPython's compiler sets itself up on its first use in a process; done here once, each forked run's compile() of its
# program skips that set-up (about 1.4 ms of CPU and 120 copy-on-write page faults per run, measured on 3.11).
compile("pass", "<warm-up>", "exec")

_CONTROL_IN, _CONTROL_OUT, _CHECKER_PARTS = 0, 1, 3


def _send(message, payload=b""):
    data = (json.dumps(message) + "\n").encode("utf-8", "surrogatepass") + payload
    while data:
        data = data[os.write(_CONTROL_OUT, data):]


def _wipe(directory):
    """Empties `directory`, whatever the run left there (any depth, any modes); never raises, so no verdict is lost to it.

    Walks by chdir, one level at a time, keeping only the names on the way down: paths never grow past PATH_MAX and
    there is no recursion, so a 1,500-deep tree is as easy as a flat one. The program is dead, so nothing moves meanwhile.
    """
    home = os.open(".", os.O_RDONLY | os.O_DIRECTORY)
    try:
        try:
            os.chmod(directory, 0o700)  # a run may have taken its own rights away; a root-owned /tmp is not ours to change
        except OSError:
            pass
        os.chdir(directory)
        trail = []  # (name of the directory we are in, names in its parent that could not be removed)
        stuck = set()
        while True:
            below = None
            with os.scandir(".") as entries:
                for entry in entries:
                    if entry.name in stuck:
                        continue
                    try:
                        if entry.is_dir(follow_symlinks=False):
                            below = entry.name
                            break
                        os.unlink(entry.name)
                    except OSError:
                        stuck.add(entry.name)
            if below is not None:
                try:
                    os.chmod(below, 0o700)
                    os.chdir(below)
                    trail.append((below, stuck))
                    stuck = set()
                except OSError:
                    stuck.add(below)
                continue
            if not trail:
                return
            name, stuck = trail.pop()
            os.chdir("..")
            try:
                os.rmdir(name)
            except OSError:
                stuck.add(name)
    except OSError as error:
        os.write(2, ("rllm-sandbox: scratch wipe: %s\n" % error).encode())
    finally:
        os.fchdir(home)
        os.close(home)


def _become(fds, cpu_seconds, memory_bytes):
    """In a forked child: only `fds` open (placed at 0..n-1), own process group, rlimits, fresh stdio, seccomp filter."""
    # Copies above every target first, so no dup2 below overwrites a descriptor that is still to be placed.
    moved = [fcntl.fcntl(fd, fcntl.F_DUPFD, 64) for fd in fds]
    for target, source in enumerate(moved):
        os.dup2(source, target)
    os.closerange(len(fds), resource.getrlimit(resource.RLIMIT_NOFILE)[0])
    os.setpgid(0, 0)
    limits = [(resource.RLIMIT_AS, memory_bytes), (resource.RLIMIT_CPU, cpu_seconds), (resource.RLIMIT_FSIZE, CONFIG["file_bytes"]),
              (resource.RLIMIT_NOFILE, CONFIG["open_files"]), (resource.RLIMIT_CORE, 0)]
    if CONFIG["processes"] is not None:
        limits.append((resource.RLIMIT_NPROC, CONFIG["processes"]))
    for limit, value in limits:
        resource.setrlimit(limit, (value, value))
    os.chdir(CONFIG["scratch"])
    sys.stdin = open(0, "r", encoding="utf-8", errors="surrogateescape", closefd=False)
    sys.stdout = open(1, "w", encoding="utf-8", errors="surrogateescape", closefd=False)
    sys.stderr = open(2, "w", encoding="utf-8", errors="backslashreplace", closefd=False)
    sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
    sys.modules["random"].seed()  # a fresh seed per run, not the zygote's
    atexit._clear()
    seccomp_filter.install()


def _run_child(fds, cpu_seconds, memory_bytes, body):
    try:
        _become(fds, cpu_seconds, memory_bytes)
        body()
    except BaseException as error:
        os.write(2, ("rllm-sandbox: %s: %s\n" % (type(error).__name__, error)).encode())
    os._exit(70)


class _Template:
    """The clean process programs are forked from (see the module's docstring); one request at a time, over a socket."""

    def __init__(self):
        self.channel, child_channel = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.pid = os.fork()
        if self.pid == 0:
            self.channel.close()
            for fd in (_CONTROL_IN, _CONTROL_OUT, _CHECKER_PARTS):
                os.close(fd)  # the grader's channels and the test code are the fork server's alone
            _serve_forks(child_channel)
        child_channel.close()

    def fork_program(self, fds):
        """Forks a program on `fds`: the job's memory file, then the descriptors it runs on (placed at 0..n-1)."""
        socket.send_fds(self.channel, [b"fork"], fds)
        return int(self.channel.recv(32))

    def reap(self, pid):
        """Waits for program `pid` (already killed or ending) to exit and returns its wait status."""
        self.channel.send(b"reap %d" % pid)
        return int(self.channel.recv(32))


def _serve_forks(channel):
    """The template's loop: forks a program per request, reaps one per request; ends with the fork server."""
    try:
        while True:
            message, fds, _, _ = socket.recv_fds(channel, 64, 8)
            if not message:
                break
            if message == b"fork":
                pid = os.fork()
                if pid == 0:
                    channel.close()
                    _run_program(fds)
                for fd in fds:
                    os.close(fd)
                channel.send(b"%d" % pid)
            else:
                channel.send(b"%d" % os.waitpid(int(message.split()[1]), 0)[1])
    finally:
        os._exit(0)


def _program_part(job):
    """What a program's process reads of its job: "<mode> <cpu seconds>" on the first line, then the program's source.

    Not the job's JSON: decoding JSON in every forked run cost it about 0.1 ms of CPU and 30 copy-on-write page faults
    (HumanEval on 3.12, 2026-12-06), and a stdio job's JSON also holds its stdin, which the run reads from fd 0 anyway.
    """
    return ("%s %d\n" % (job["mode"], job["cpu_seconds"])).encode() + job["program"].encode("utf-8", "surrogatepass")


def _run_program(fds):
    """In a child of the template: reads its part of the job (_program_part) from the memory file fds[0], then runs the
    program on fds[1:]."""
    job_file = fds[0]
    header, program = os.pread(job_file, os.fstat(job_file).st_size, 0).split(b"\n", 1)
    os.close(job_file)
    mode, cpu_seconds = header.decode().split()
    job = {"mode": mode, "program": program.decode("utf-8", "surrogatepass")}
    _run_child(fds[1:], int(cpu_seconds), CONFIG["memory_bytes"], lambda: program_host.run(job))


def _status(status):
    if os.WIFSIGNALED(status):
        return None, signal.Signals(os.WTERMSIG(status)).name
    return os.waitstatus_to_exitcode(status), None


def _kill(pid):
    if pid is not None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


class _Checker:
    """The slot's trusted checker process and its channels (records, stderr, and the socket that hands over jobs)."""

    def __init__(self):
        control, control_child = socket.socketpair()
        self.records, records_write = os.pipe()
        self.stderr, stderr_write = os.pipe()
        # The test code's own prints land in the checker's stderr tail.
        null = os.memfd_create("checker-stdin")
        fds = [null, stderr_write, stderr_write, _CHECKER_PARTS, control_child.fileno(), records_write]
        self.pid = os.fork()
        if self.pid == 0:
            _run_child(fds, resource.RLIM_INFINITY, CONFIG["memory_bytes"], lambda: (checker.serve(), os._exit(0)))
        for fd in (null, stderr_write, records_write):
            os.close(fd)
        control_child.close()
        self.control = control

    def is_alive(self):
        return os.waitpid(self.pid, os.WNOHANG) == (0, 0)

    def hand_over(self, job_id, calls_write, replies_read):
        socket.send_fds(self.control, [str(job_id).encode()], [calls_write, replies_read])

    def close(self):
        _kill(self.pid)
        try:
            os.waitpid(self.pid, 0)
        except ChildProcessError:
            pass  # already reaped by is_alive
        for fd in (self.records, self.stderr):
            os.close(fd)
        self.control.close()


_checker = None
_template = None


def _hand_over(job_id, calls_write, replies_read):
    """Gives the job's call pipes to a live checker, forking a new one when there is none or the handover fails."""
    global _checker
    for attempt in (1, 2):
        if _checker is not None and not _checker.is_alive():
            _checker.close()
            _checker = None
        if _checker is None:
            _checker = _Checker()
        try:
            _checker.hand_over(job_id, calls_write, replies_read)
            return
        except OSError:
            if attempt == 2:
                raise  # a fresh checker that cannot take a job: the sandbox is broken, before the program ran
            _checker.close()
            _checker = None


class _Job:
    def __init__(self, job):
        self.job = job
        self.started = time.monotonic()
        self.last_record = self.started
        self.stdout, self.stdout_length = [], 0
        self.stderr, self.checker_stderr, self.partial = b"", b"", b""
        self.timed_out = self.output_exceeded = self.stopped = False
        self.program = None

    def start(self):
        job = self.job
        is_call = job["mode"] != "stdio"
        stdout_read, stdout_write = os.pipe()
        stderr_read, stderr_write = os.pipe()
        # stdin is a memory file: the test's input, or empty in call mode (the sandbox's /dev/null may be nodev).
        stdin = os.memfd_create("stdin")
        os.write(stdin, job["stdin"].encode("utf-8", "surrogatepass"))
        os.lseek(stdin, 0, os.SEEK_SET)
        calls_read, calls_write = os.pipe() if is_call else (None, None)
        replies_read, replies_write = os.pipe() if is_call else (None, None)
        fds = [stdin, stdout_write, stderr_write] + ([calls_read, replies_write] if is_call else [])
        if is_call:
            # The checker gets its job before the program exists: a checker found dead here (the kernel's OOM killer
            # during a stdin run picks any process of the sandbox; a kill still in flight passes is_alive) is replaced
            # before any candidate code runs, so its death can never be put down to the program.
            _hand_over(job["id"], calls_write, replies_read)
            os.close(calls_write)
            os.close(replies_read)
        # The job goes to the program in a memory file of its own: the template forks it without reading the job.
        job_file = os.memfd_create("job")
        os.write(job_file, _program_part(job))
        try:
            self.program = _template.fork_program([job_file] + fds)
        finally:
            for fd in [job_file] + fds:
                os.close(fd)
        self.streams = {stdout_read: "stdout", stderr_read: "stderr"}
        if is_call:
            self.streams.update({_checker.records: "records", _checker.stderr: "checker_stderr"})

    def relay(self):
        while self.streams:
            now = time.monotonic()
            limit = min(self.started + self.job["deadline_ms"] / 1000, self.last_record + self.job["idle_ms"] / 1000)
            if now >= limit and not self.timed_out:
                self.timed_out = True
                self.kill()
            ready, _, _ = select.select(list(self.streams) + [_CONTROL_IN], [], [], max(0.0, limit - now) if not self.timed_out else 1.0)
            for fd in ready:
                if fd == _CONTROL_IN:
                    self.control()
                    continue
                if fd not in self.streams:
                    continue  # the checker finished this job earlier in this round
                data = os.read(fd, 1 << 16)
                name = self.streams[fd]
                if not data:
                    if name in ("records", "checker_stderr"):
                        self.checker_gone()
                    else:
                        os.close(fd)
                        del self.streams[fd]
                    continue
                self.take(name, data)

    def checker_gone(self):
        """The checker died (killed on a limit, or crashed): reap it; the next call job forks a new one."""
        global _checker
        self.release_checker()
        # Its last words (a traceback) may still be in its stderr pipe when the records pipe closes first.
        _kill(_checker.pid)
        while True:
            data = os.read(_checker.stderr, 1 << 16)
            if not data:
                break
            self.checker_stderr = (self.checker_stderr + data)[-self.job["stderr_bytes"]:]
        _checker.close()
        _checker = None
        _kill(self.program)

    def release_checker(self):
        """This job stops listening to the checker's channels (they stay open for the next job)."""
        for fd, name in list(self.streams.items()):
            if name in ("records", "checker_stderr"):
                del self.streams[fd]

    def take(self, name, data):
        if name == "stdout":
            self.stdout_length += len(data)
            if self.stdout_length > self.job["output_bytes"]:
                self.output_exceeded = True
                self.kill()
            else:
                self.stdout.append(data)
        elif name == "stderr":
            self.stderr = (self.stderr + data)[-self.job["stderr_bytes"]:]
        elif name == "checker_stderr":
            self.checker_stderr = (self.checker_stderr + data)[-self.job["stderr_bytes"]:]
        else:
            lines = (self.partial + data).split(b"\n")
            self.partial = lines.pop()
            for line in lines:
                if line.startswith(b'{"checker_done":'):
                    self.release_checker()
                    _kill(self.program)  # the checker is done; the program is only waiting for calls
                    continue
                self.last_record = time.monotonic()
                _send({"type": "record", "line": line.decode("utf-8", "surrogateescape")})

    def control(self):
        message = _read_control()
        if message is None:  # the grader is gone
            self.kill()
            os._exit(0)
        if message.get("stop"):
            self.stopped = True
            self.kill()

    def kill(self):
        """Ends the job at once: the program, and the checker if it is working on this job."""
        _kill(self.program)
        if any(name == "records" for name in self.streams.values()):
            _kill(_checker.pid)

    def finish(self):
        self.kill()
        exit_code, signal_name = _status(_template.reap(self.program))
        _wipe(CONFIG["scratch"])
        stdout = b"".join(self.stdout)
        _send({
            "type": "done", "exit_code": exit_code, "signal": signal_name, "timed_out": self.timed_out, "output_exceeded": self.output_exceeded,
            "stopped": self.stopped, "wall_ms": (time.monotonic() - self.started) * 1000,
            "stderr": self.stderr.decode("utf-8", "replace"), "checker_stderr": self.checker_stderr.decode("utf-8", "replace"),
            "stdout_bytes": len(stdout),
        }, stdout)


_control_buffer = b""


def _read_control():
    """The next JSON line from the grader, or None at end of input."""
    global _control_buffer
    while b"\n" not in _control_buffer:
        chunk = os.read(_CONTROL_IN, 1 << 20)
        if not chunk:
            return None
        _control_buffer += chunk
    line, _control_buffer = _control_buffer.split(b"\n", 1)
    return json.loads(line)


def _self_test():
    """Forks once to check that the filter installs here; the grader refuses to start without it."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            seccomp_filter.install()
            os.write(write, b"ok")
        except BaseException as error:
            os.write(write, str(error).encode())
        os._exit(0)
    os.close(write)
    answer = os.read(read, 4096).decode()
    os.close(read)
    os.waitpid(pid, 0)
    return None if answer == "ok" else answer


def _keep_to_one_cpu(slot):
    """Keeps this process and all it forks (template, checker, programs) to one CPU, the slot's among those allowed.

    A job is a chain of hand-offs between them (fork request, the checker's calls and the program's replies, records,
    reap), each a wake-up of a waiting process. On another CPU a wake-up costs an inter-processor interrupt, which on a
    virtual machine goes through the hypervisor: a call and its reply over a pipe took 92-104 us there against 32 us on
    one CPU (2026-12-06), and HumanEval's 164 on 2 slots 0.86 s against 0.81 s (medians of 5 alternating runs). Slots
    take CPUs in turn, so two slots on two CPUs never share one. A program may widen its own affinity; that only
    changes its speed.
    """
    try:
        cpus = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {cpus[slot % len(cpus)]})
    except (AttributeError, OSError):
        pass  # no affinity on this system (or not allowed): the slot runs wherever the scheduler puts it


def main():
    if CONFIG.get("slot") is not None:
        _keep_to_one_cpu(CONFIG["slot"])
    seccomp_filter.make_undumpable()
    seccomp_filter.prepare()
    _wipe(CONFIG["scratch"])
    global _template
    error = _self_test()
    if not error:
        # Pre-imported objects go to the permanent generation: forked runs' collections then skip them, and fewer of
        # their shared pages get copied on write.
        gc.freeze()
        _template = _Template()
    _send({"type": "ready", "python": sys.version.split()[0], "error": error})
    if error:
        return
    while True:
        job = _read_control()
        if job is None:
            return
        if job.get("stop"):
            continue  # a stop that arrived after its job had ended
        run = _Job(job)
        run.start()
        run.relay()
        run.finish()


main()
