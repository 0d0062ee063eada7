open("a23lib/rec.py", "w").write('''"""Rows with generated accessors (compiled once, like namedtuple's)."""
import types

_ACCESSOR = "def {name}(self):\\n    return self._values[{index}]\\n"


def make_function(source, name):
    """The function `name` defined by `source` (one `def`), built without running any module code."""
    top = compile(source, "<generated %s>" % name, "exec")
    code = [c for c in top.co_consts if isinstance(c, types.CodeType)][0]
    return types.FunctionType(code, {"__builtins__": __builtins__}, name)


def make_function_exec(source, name):
    """The same, through exec."""
    ns = {}
    exec(compile(source, "<generated %s>" % name, "exec"), ns)
    return ns[name]


class Row:
    def __init__(self, *values):
        self._values = values

    first = property(make_function(_ACCESSOR.format(name="first", index=0), "first"))
    second = property(make_function_exec(_ACCESSOR.format(name="second", index=1), "second"))


def slugify(text):
    """A URL slug: lower-case words joined by dashes."""
    return "-".join(text.lower().split())
''')
open("tests/test_rec.py", "w").write('''import pytest

from a23lib.rec import Row, slugify


@pytest.mark.parametrize("text,expected", [("Hello World", "hello-world"), ("A  B c", "a-b-c")], ids=["two", "three"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_row():
    r = Row(1, 2)
    assert (r.first, r.second) == (1, 2)
''')
