"""Plain data on the call channel between the trusted checker and the program: tagged JSON, decoded strictly.

Plain data is None, bool, int, float, complex, str, bytes and lists, tuples, dicts, sets and frozensets of plain
data, each of exactly that type (a subclass may carry its own __eq__). The program's side encodes; the checker's
side decodes with `decode`, which builds only those exact types, so nothing from the program can answer `==` itself.

Nesting is counted from each value a message carries, never from the message's own envelope (`envelope`), and the
checker's arguments may be nested deeper than replies (`ARGUMENT_HEADROOM`): a value the program may send in a reply
can be sent back to it as an argument, also inside a few lists of the test's own.
"""
import json

# The deepest nesting of a value in the program's replies; deeper is not plain data (JSON and the builders recurse).
MAX_DEPTH = 200
# How much deeper than a reply an argument the checker sends may be nested.
ARGUMENT_HEADROOM = 100
_CONTAINERS = (list, tuple, dict, set, frozenset)
_TAGS = ("$tuple", "$dict", "$set", "$frozenset", "$bytes", "$complex", "$int", "$float")
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
# Computed once: CPython folds no constant this large, so `10 ** 300` in the function body was a bignum power per int.
_INT_LIMIT = 10 ** 300
_INFINITIES = (float("inf"), float("-inf"))


class NotPlainData(Exception):
    """A value of a type the channel does not carry."""


class TooDeep(NotPlainData):
    """A value nested too deep; `path` holds the containers from the one too deep out to the outermost."""

    def __init__(self):
        super().__init__("nesting deeper than %d" % MAX_DEPTH)
        self.path = []


def to_plain(value, depth=0):
    """A JSON-ready form of `value` (its nesting starting at `depth`); raises NotPlainData naming the first type that is
    not plain data, or TooDeep past MAX_DEPTH."""
    kind = type(value)
    if depth > MAX_DEPTH:
        error = TooDeep()
        if any(kind is container for container in _CONTAINERS):
            error.path.append(value)
        raise error
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if -_INT_LIMIT < value < _INT_LIMIT else {"$int": hex(value)}
    if kind is float:
        return value if value == value and value not in _INFINITIES else {"$float": repr(value)}
    try:
        if kind is list:
            return [to_plain(item, depth + 1) for item in value]
        if kind is tuple:
            return {"$tuple": [to_plain(item, depth + 1) for item in value]}
        if kind is dict:
            return {"$dict": [[to_plain(key, depth + 1), to_plain(item, depth + 1)] for key, item in value.items()]}
        if kind is set or kind is frozenset:
            return {"$set" if kind is set else "$frozenset": [to_plain(item, depth + 1) for item in value]}
    except TooDeep as error:
        # Free unless raised (3.11's exception tables): the checker reads the path to see whose value was too deep.
        error.path.append(value)
        raise
    if kind is bytes:
        return {"$bytes": value.hex()}
    if kind is complex:
        return {"$complex": [to_plain(value.real), to_plain(value.imag)]}
    if kind.__module__ == "numpy" and getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return to_plain(value.item(), depth + 1)  # a numpy scalar compares as the Python number it holds
    raise NotPlainData("a %s is not plain data" % kind.__name__)


def encode(value, envelope=0, headroom=0):
    """One line of JSON text for `value`, a message whose first `envelope` levels of nesting are its own: the values it
    carries count their nesting from themselves, up to MAX_DEPTH + `headroom`."""
    try:
        return json.dumps(to_plain(value, -(envelope + headroom)), separators=(",", ":"))
    except TooDeep as error:
        error.args = ("nesting deeper than %d" % (MAX_DEPTH + headroom),)
        raise


def _tagged(pairs):
    if len(pairs) != 1 or pairs[0][0] not in _TAGS:
        raise NotPlainData("unexpected object %r" % ([key for key, _ in pairs],))
    return _Tagged(pairs[0][0], pairs[0][1])


class _Tagged:
    __slots__ = ("tag", "body")

    def __init__(self, tag, body):
        self.tag, self.body = tag, body


def _build(node):
    kind = type(node)
    if node is None or kind in (bool, int, float, str):
        return node
    if kind is list:
        return [_build(item) for item in node]
    if kind is not _Tagged:
        raise NotPlainData("unexpected %s" % kind.__name__)
    tag, body = node.tag, node.body
    if tag == "$int" and type(body) is str:
        return int(body, 16)
    if tag == "$float" and body in ("nan", "inf", "-inf"):
        return float(body)
    if tag == "$bytes" and type(body) is str:
        return bytes.fromhex(body)
    if type(body) is not list:
        raise NotPlainData("malformed %s" % tag)
    items = [_build(item) for item in body]
    if tag == "$tuple":
        return tuple(items)
    if tag == "$set":
        return set(items)
    if tag == "$frozenset":
        return frozenset(items)
    if tag == "$complex" and len(items) == 2 and all(type(item) in (int, float) for item in items):
        return complex(items[0], items[1])
    if tag == "$dict" and all(type(pair) is list and len(pair) == 2 for pair in items):
        return {key: item for key, item in items}
    raise NotPlainData("malformed %s" % tag)


def _check_depth(node, limit):
    """Raises NotPlainData when a value in the parsed message `node` is nested deeper than `limit` (its envelope's
    levels counted below 0 by the caller). Nesting as to_plain counts it: a dict's keys and values one level below it."""
    stack = [(node, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            raise NotPlainData("nesting deeper than %d" % limit)
        if type(node) is list:
            stack.extend((item, depth + 1) for item in node)
        elif type(node) is _Tagged and type(node.body) is list:
            if node.tag == "$dict":
                stack.extend((item, depth + 1) for pair in node.body if type(pair) is list for item in pair)
            else:
                stack.extend((item, depth + 1) for item in node.body)


def decode(text, envelope=0, headroom=0):
    """The plain value of one line, a message whose first `envelope` levels are its own and whose values are nested at
    most MAX_DEPTH + `headroom` deep; raises NotPlainData (or ValueError) on anything else."""
    try:
        node = json.loads(text, object_pairs_hook=_tagged, parse_constant=_CONSTANTS.__getitem__)
        # Each level of nesting opens at least one "[": a message with fewer cannot be too deep (the usual case, counted
        # in C), and only the others are walked.
        if text.count("[") > MAX_DEPTH + headroom:
            _check_depth(node, MAX_DEPTH + headroom + envelope)
        return _build(node)
    except (TypeError, RecursionError) as error:
        raise NotPlainData(type(error).__name__) from None
