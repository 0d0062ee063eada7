open("a23lib/convert.py", "w").write('''"""Call a function with command-line strings, converted by its type hints (a tiny typer/click-like layer)."""
import typing


def call(func, *raw):
    """`func(*converted)`: each string converted by its parameter's hint, the result by the return hint."""
    hints = typing.get_type_hints(func)
    names = list(func.__code__.co_varnames[:func.__code__.co_argcount])
    args = [hints.get(n, str)(r) for n, r in zip(names, raw)]
    result = func(*args)
    ret = hints.get("return")
    return ret(result) if callable(ret) else result
''')
open("a23lib/ops.py", "w").write('''"""Operations exposed on the command line."""
from __future__ import annotations


def scale(x: float, factor: float) -> float:
    """`x` times `factor`."""
    return x * factor


def label(name: str, n: int) -> str:
    return f"{name}-{n}"
''')
open("tests/test_ops.py", "w").write('''from a23lib.convert import call
from a23lib.ops import label, scale


def test_scale():
    assert call(scale, "2", "3.5") == 7.0


def test_label():
    assert call(label, "a", "3") == "a-3"
''')
