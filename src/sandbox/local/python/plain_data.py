"""Plain data on the call channel between the trusted checker and the program: tagged JSON, decoded strictly.

Plain data is None, bool, int, float, complex, str, bytes and lists, tuples, dicts, sets and frozensets of plain
data, each of exactly that type (a subclass may carry its own __eq__). The program's side encodes; the checker's
side decodes with `decode`, which builds only those exact types, so nothing from the program can answer `==` itself.
"""
import json

_TAGS = ("$tuple", "$dict", "$set", "$frozenset", "$bytes", "$complex", "$int", "$float")
_CONSTANTS = {"NaN": float("nan"), "Infinity": float("inf"), "-Infinity": float("-inf")}
# Computed once: CPython folds no constant this large, so `10 ** 300` in the function body was a bignum power per int.
_INT_LIMIT = 10 ** 300
_INFINITIES = (float("inf"), float("-inf"))


class NotPlainData(Exception):
    """A value of a type the channel does not carry."""


def to_plain(value, depth=0):
    """A JSON-ready form of `value`; raises NotPlainData naming the first type that is not plain data."""
    kind = type(value)
    if depth > 200:
        raise NotPlainData("nesting deeper than 200")
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        return value if -_INT_LIMIT < value < _INT_LIMIT else {"$int": hex(value)}
    if kind is float:
        return value if value == value and value not in _INFINITIES else {"$float": repr(value)}
    if kind is list:
        return [to_plain(item, depth + 1) for item in value]
    if kind is tuple:
        return {"$tuple": [to_plain(item, depth + 1) for item in value]}
    if kind is dict:
        return {"$dict": [[to_plain(key, depth + 1), to_plain(item, depth + 1)] for key, item in value.items()]}
    if kind is set or kind is frozenset:
        return {"$set" if kind is set else "$frozenset": [to_plain(item, depth + 1) for item in value]}
    if kind is bytes:
        return {"$bytes": value.hex()}
    if kind is complex:
        return {"$complex": [to_plain(value.real), to_plain(value.imag)]}
    if kind.__module__ == "numpy" and getattr(value, "ndim", None) == 0 and hasattr(value, "item"):
        return to_plain(value.item(), depth + 1)  # a numpy scalar compares as the Python number it holds
    raise NotPlainData("a %s is not plain data" % kind.__name__)


def encode(value):
    """One line of JSON text for `value`."""
    return json.dumps(to_plain(value), separators=(",", ":"))


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


def decode(text):
    """The plain value of one line from the program; raises NotPlainData (or ValueError) on anything else."""
    try:
        return _build(json.loads(text, object_pairs_hook=_tagged, parse_constant=_CONSTANTS.__getitem__))
    except (TypeError, RecursionError) as error:
        raise NotPlainData(type(error).__name__) from None
