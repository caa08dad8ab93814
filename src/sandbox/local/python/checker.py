"""The trusted checker: runs a problem's tests in a process that never loads the untrusted program.

Function-call tests call the program's function through the call channel and report the plain value (the grader
compares it outside the sandbox). Assert tests (HumanEval `check(candidate)`) run here, in a namespace where each of
the program's functions is a proxy: arguments go over the channel, a plain-data result comes back. The program cannot
patch this process's builtins, walk its frames or write its records: fd 5, the record channel, exists only here.
Program names that shadow builtins stay hidden from the tests, so a program cannot redefine abs() or isinstance() for them.
A name the program binds to a module is bound here to the checker's own import of that module (standard library or the
sandbox's site-packages, never the program's object), and a small plain-data global to a decoded copy, so tests that
use `math.isclose` or a constant from the prompt work. Any other use of the program than calling its functions (reading
an attribute of one, using a value the channel cannot copy, passing one of them back to the program) is the program's
failure, a scored runtime_error with the reason: the program decides what its names are, so "unsupported" there would
let a wrong program leave a failing test unscored. "unsupported" is left for what no program can cause: a test that
passes a value of its own making the call channel cannot carry (a lambda, an object of a test-defined class), or an
assert test that does not compile. An unsupported test does not end the job: the tests after it still run, so a
program that fails one of them is still a scored failure. No value of the program's can make a test unsupported: the
channel carries back anything the program may send (nesting counts from the value, not the message, and arguments may
be nested deeper than replies), a reply may be as long as the call it answers plus the output cap, and a limit hit
while carrying the program's own output anyway is the program's failure.

One checker serves a slot's jobs one after another (the zygote forks it once and again after it dies): fd 3 carries
the checkers' parts of the jobs ("<length>\\n<json>"), fd 4 is a socket on which the zygote hands over each job's
id and the two pipes to that job's program, fd 5 takes the records. Each job's tests run in a fresh namespace.
"""
import builtins
import importlib
import importlib.util
import json
import os
import random
import socket
import sys

import plain_data

# A reply may be this much longer than the call it answers (a function may always hand back what it was given);
# past that it is a channel violation. The grader's stdout cap is of the same order.
_REPLY_BYTES = 16 * 1024 * 1024
# Replies of one test kept alive so that a too-deep argument can be traced to them (an id names one object only while
# it lives). Past this many bytes of replies in one test, a too-deep argument is put down to the program, which could
# have sent it.
_KEPT_REPLY_BYTES = 16 * 1024 * 1024
# Python frames added while a message is encoded or decoded (both recurse), so that a test calling the program from
# deep in its own recursion never runs the channel out of frames: that limit would be the checker's, not the program's.
_CHANNEL_FRAMES = 2000


class _PolicyStop(BaseException):
    """Raised into the test code when the program or the test steps outside the trusted-checker policy."""


class _State:
    """What went wrong in the current test, kept here where the program cannot reach it (tests may catch exceptions)."""

    def __init__(self):
        self.failure = None  # (verdict, detail) of the first policy breach in this test
        self.ended = False  # the program's process ended

    def breach(self, verdict, detail):
        if self.failure is None:
            self.failure = (verdict, detail)
        raise _PolicyStop(detail)


def _with_frames(function, *arguments):
    """`function(*arguments)` with _CHANNEL_FRAMES more Python frames allowed than the caller had left."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(limit + _CHANNEL_FRAMES)
    try:
        return function(*arguments)
    finally:
        sys.setrecursionlimit(limit)


class _Channel:
    def __init__(self, state, requests_fd, replies_fd):
        self.state = state
        self.requests = os.fdopen(requests_fd, "w", encoding="utf-8", errors="surrogatepass")
        self.replies = os.fdopen(replies_fd, "r", encoding="utf-8", errors="surrogatepass")
        self.program_globals = []  # the program's plain-data globals, copied into the test namespace
        self.kept = []  # the values the program returned in the current test
        self.kept_bytes = 0
        self.untracked = False  # some of them were not kept (over _KEPT_REPLY_BYTES)

    def close(self):
        for stream in (self.requests, self.replies):
            try:
                stream.close()
            except OSError:
                pass

    def start_test(self):
        self.kept, self.kept_bytes, self.untracked = [], 0, False

    def receive(self, envelope, limit=_REPLY_BYTES):
        """The next message from the program (its first `envelope` levels its own) and its length."""
        line = self.replies.readline(limit + 1)
        if line == "":
            self.state.ended = True
            raise _PolicyStop("the program ended")
        if len(line) > limit:
            self.state.breach("runtime_error", "call-channel policy: a reply longer than %d bytes" % limit)
        try:
            return _with_frames(plain_data.decode, line, envelope), len(line)
        except (plain_data.NotPlainData, ValueError) as error:
            self.state.breach("runtime_error", "call-channel policy: the program sent something other than plain data (%s)" % str(error)[:200])

    def call(self, name, arguments, keywords):
        try:
            line = _with_frames(plain_data.encode, ("call", name, list(arguments), dict(keywords)), 2, plain_data.ARGUMENT_HEADROOM)
        except plain_data.NotPlainData as error:
            if _holds_program_object((arguments, keywords)):
                self.state.breach("runtime_error", "trusted-checker policy: the test passes one of the program's own names to %s, which the call channel cannot carry" % name)
            if isinstance(error, plain_data.TooDeep) and self._holds_program_output(error.path):
                self.state.breach("runtime_error", "call-channel policy: the arguments to %s hold a value the program returned, and are nested deeper than the %d levels the channel carries" % (name, plain_data.MAX_DEPTH + plain_data.ARGUMENT_HEADROOM))
            self.state.breach("unsupported", "trusted-checker policy: the test passes a value the call channel cannot carry to %s (%s)" % (name, error))
        try:
            self.requests.write(line + "\n")
            self.requests.flush()
        except (BrokenPipeError, OSError):
            self.state.ended = True
            raise _PolicyStop("the program ended")
        reply, size = self.receive(1, _REPLY_BYTES + len(line))
        if type(reply) is tuple and len(reply) == 2 and reply[0] == "value":
            self._keep(reply[1], size)
            return reply[1]
        if type(reply) is tuple and len(reply) == 3 and reply[0] == "error" and type(reply[1]) is str and type(reply[2]) is str:
            if reply[1] == "$notplain":
                self.state.breach("wrong_answer", "plain-data policy: %s returned a value that is not plain data (%s)" % (name, reply[2]))
            raise _program_error(reply[1], reply[2])
        self.state.breach("runtime_error", "call-channel policy: unexpected reply %r" % (str(reply)[:100],))

    def _keep(self, value, size):
        if self.kept_bytes + size > _KEPT_REPLY_BYTES:
            self.untracked = True
            return
        self.kept.append(value)
        self.kept_bytes += size

    def _holds_program_output(self, path):
        """Whether a container on `path` (the arguments' containers down to the one too deep) came from the program.

        A limit hit while carrying the program's own output is the program's failure: otherwise a program could make a
        test it fails unsupported (unscored) by returning a value the test then cannot pass back.
        """
        if self.untracked:
            return True
        produced = {id(container) for container in _containers(self.program_globals + self.kept)}
        return any(id(container) in produced for container in path)


class ProgramError(Exception):
    """An exception the program raised whose type is not a builtin one."""


def _program_error(type_name, message):
    # A builtin exception type keeps tests that expect e.g. ValueError working; any other type is ProgramError.
    kind = getattr(builtins, type_name, None)
    if isinstance(kind, type) and issubclass(kind, Exception) and kind.__module__ == "builtins":
        return kind(message)
    return ProgramError("%s: %s" % (type_name, message))


class ProgramFunction:
    """A function of the program, callable by the tests and nothing more."""

    __slots__ = ("_name", "_channel")

    def __init__(self, name, channel):
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_channel", channel)

    def __call__(self, *arguments, **keywords):
        return self._channel.call(self._name, arguments, keywords)

    def __getattr__(self, attribute):
        self._channel.state.breach("runtime_error", "trusted-checker policy: the test reads %s.%s, but %s is a function or class of the program and only calls reach it" % (self._name, attribute, self._name))

    def __repr__(self):
        return "<program function %s>" % self._name


def _opaque_type(state):
    """A stand-in for the program's globals that are neither functions, modules nor small plain data: any use fails."""

    def refuse(self, *_arguments, **_keywords):
        state.breach("runtime_error", "trusted-checker policy: the test uses %s, a value in the program's namespace that is not a function, a module or plain data" % object.__getattribute__(self, "_name"))

    def not_callable(self, *_arguments, **_keywords):
        # The program defined this name as something other than a function: calling it fails as it would in-process.
        raise TypeError("%s is not callable in the program" % object.__getattribute__(self, "_name"))

    members = {"__slots__": ("_name",), "__repr__": lambda self: "<program value %s>" % object.__getattribute__(self, "_name"), "__call__": not_callable}
    for name in ("__getattr__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__", "__len__", "__iter__",
                 "__contains__", "__getitem__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
                 "__truediv__", "__floordiv__", "__mod__", "__neg__", "__abs__", "__int__", "__float__", "__index__", "__str__", "__format__"):
        members[name] = refuse
    return type("ProgramValue", (), members)


def _containers(value):
    """The lists, tuples, dicts, sets and frozensets in `value` at any depth, each once (cycles and sharing included)."""
    found, stack = {}, [value]
    while stack:
        item = stack.pop()
        kind = type(item)
        if (kind is list or kind is tuple or kind is dict or kind is set or kind is frozenset) and id(item) not in found:
            found[id(item)] = item
            if kind is dict:
                stack.extend(item.keys())
                stack.extend(item.values())
            else:
                stack.extend(item)
    return found.values()


def _holds_program_object(value):
    """Whether `value` (the arguments of a call, a container) holds, at any depth, a stand-in for one of the program's
    names."""
    for container in _containers(value):
        for item in [*container.keys(), *container.values()] if type(container) is dict else container:
            if isinstance(item, ProgramFunction) or type(item).__name__ == "ProgramValue":
                return True
    return False


# The checker's sys.path (zygote.py, python -I): this directory, the standard library, the sandbox's site-packages;
# none of them is writable by the program, and this directory's modules are never handed to the tests.
_HERE = os.path.dirname(os.path.abspath(__file__))
# Standard modules whose import does more than define names (opens a browser, prints, starts a GUI).
_NEVER_IMPORTED = frozenset(("antigravity", "this", "__main__", "__hello__", "__phello__", "idlelib", "tkinter", "turtle", "turtledemo"))


def _trusted_module(name):
    """The checker's own import of module `name`, or None unless it is a standard or site-packages module."""
    if type(name) is not str or not all(part.isidentifier() for part in name.split(".")):
        return None
    top = name.split(".")[0]
    if top in _NEVER_IMPORTED:
        return None
    try:
        if top not in sys.stdlib_module_names:
            spec = importlib.util.find_spec(top)
            origin = getattr(spec, "origin", None) or ""
            locations = list(getattr(spec, "submodule_search_locations", None) or [])
            if spec is None or not (origin or locations) or any(os.path.abspath(path).startswith(_HERE + os.sep) for path in [origin, *locations] if path):
                return None
        return importlib.import_module(name)
    except BaseException:
        return None


# Past this an int goes as hex: Python refuses to print ints of more than 4,300 digits. Computed once (a 4,000-digit
# power in the function body cost about 0.1 ms per int reported).
_INT_LIMIT = 10 ** 4000


def _tagged(value):
    """The grader's JSON form of a plain value: tuples as lists, dicts as {"$dict": pairs}, other types never equal."""
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if -_INT_LIMIT < value < _INT_LIMIT else {"$hex": hex(value)}
    if kind is float:
        return value
    if kind is list or kind is tuple:
        return [_tagged(item) for item in value]
    if kind is dict:
        return {"$dict": [[_tagged(key), _tagged(item)] for key, item in value.items()]}
    return {"$other": kind.__name__}


def _read_part():
    length = b""
    while not length.endswith(b"\n"):
        byte = os.read(3, 1)
        if not byte:
            raise SystemExit("rllm-checker: no job part")
        length += byte
    data, remaining = [], int(length)
    while remaining > 0:
        chunk = os.read(3, min(remaining, 1 << 20))
        if not chunk:
            raise SystemExit("rllm-checker: truncated job part")
        data.append(chunk)
        remaining -= len(chunk)
    return json.loads(b"".join(data).decode("utf-8", "surrogatepass"))


def _describe(error):
    try:
        message = str(error)[:500]
    except BaseException as failure:  # e.g. an assert message holding the program's 5,000-digit int (ValueError)
        message = "(its message cannot be printed: %s)" % type(failure).__name__
    return type(error).__name__ + ": " + message


def serve():
    """Runs the tests of each job the zygote hands over, until the zygote closes the socket."""
    control = socket.socket(fileno=4)
    records = os.fdopen(5, "w", encoding="utf-8", errors="surrogatepass")

    def report(record):
        records.write(json.dumps(record, allow_nan=True) + "\n")
        records.flush()

    while True:
        message, fds, _, _ = socket.recv_fds(control, 64, 2)
        if not message:
            return
        job_id = int(message)
        part = _read_part()
        while part["id"] != job_id:  # the part of an earlier job whose checker was killed before it read it
            part = _read_part()
        channel = _Channel(_State(), fds[0], fds[1])
        random.seed()
        try:
            _run_tests(part, channel, report)
        finally:
            channel.close()
            report({"checker_done": job_id})


def _compile_test(test, index):
    """The code of assert test `index`, or the error compiling it raised (kept for that test's turn)."""
    try:
        return compile(test, "<test %d>" % index, "exec")
    except BaseException as error:  # SyntaxError, ValueError (null bytes), RecursionError, MemoryError: the test's own
        return error


def _run_tests(part, channel, report):
    """Writes one record per test of `part`, then {"end": true}; stops at the first failure unless run_all."""
    state = channel.state
    # Assert tests are compiled while the program is still starting: compiling HumanEval's check() takes about as long
    # as the program's own start, so doing it before the names arrive takes it off the job's path. A test that does not
    # compile keeps its error, reported at that test's turn as unsupported (the test's fault, never the program's).
    compiled = [_compile_test(test, index) for index, test in enumerate(part["asserts"])] if part["mode"] != "functional" else None
    names = None
    try:
        reply, _ = channel.receive(3)
        if type(reply) is tuple and len(reply) == 2 and reply[0] == "names" and type(reply[1]) is dict:
            names = reply[1]
        else:
            state.breach("runtime_error", "call-channel policy: the program's first message is not its names")
    except _PolicyStop:
        pass
    if names is None:
        report({"i": 0, "ended": True} if state.ended else {"i": 0, "error": state.failure[1], "verdict": state.failure[0]})
        return
    opaque = _opaque_type(state)
    namespace = {"__name__": "__check__", "__builtins__": builtins}
    for name, kind in names.items():
        # A program name never shadows a builtin the tests use (a program-defined abs() would answer every tolerance check).
        if type(name) is not str or not name.isidentifier() or hasattr(builtins, name):
            continue
        module = _trusted_module(kind[1]) if type(kind) is tuple and len(kind) == 2 and kind[0] == "module" else None
        if kind == "function":
            namespace[name] = ProgramFunction(name, channel)
        elif module is not None:
            namespace[name] = module  # the checker's own import: the program's module object never reaches the tests
        elif type(kind) is tuple and len(kind) == 2 and kind[0] == "plain":
            namespace[name] = kind[1]  # a copy decoded by plain_data: only exact plain types, nothing of the program's
            channel.program_globals.append(kind[1])
        else:
            namespace[name] = opaque.__new__(opaque)
            object.__setattr__(namespace[name], "_name", name)
    tests = part["inputs"] if part["mode"] == "functional" else part["asserts"]
    for index, test in enumerate(tests):
        state.failure, error, value = None, None, None
        channel.start_test()
        try:
            if part["mode"] == "functional":
                arguments = [json.loads(line) for line in test.split("\n") if line.strip() != ""]
                value = channel.call(part["fn_name"], arguments, {})
            else:
                code = compiled[index]
                if isinstance(code, BaseException):
                    report({"i": index, "error": "the test does not compile: " + _describe(code), "verdict": "unsupported"})
                    continue
                exec(code, namespace)
        except BaseException as caught:
            error = caught
        if state.ended:
            report({"i": index, "ended": True})
            return
        if state.failure is not None:
            record = {"i": index, "error": state.failure[1], "verdict": state.failure[0]}
        elif error is not None:
            record = {"i": index, "error": _describe(error)}
        else:
            record = {"i": index, "value": _tagged(value)}
        report(record)
        if "error" in record and record.get("verdict") != "unsupported" and not part["run_all"]:
            return
    report({"end": True})
