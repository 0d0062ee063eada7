open("a23lib/calc.py", "w").write('''"""A small calculator for user-entered formulas."""
import ast
import math

_NAMES = {"pi": math.pi, "e": math.e, "sqrt": math.sqrt, "abs": abs, "min": min, "max": max}
_NODES = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Constant, ast.Name, ast.Load, ast.Call, ast.operator,
          ast.unaryop)


def evaluate(formula, **variables):
    """The value of an arithmetic formula over numbers, the given variables and a few math names."""
    tree = ast.parse(formula, mode="eval")
    for node in ast.walk(tree):
        if not isinstance(node, _NODES):
            raise ValueError("not allowed: %s" % type(node).__name__)
    code = compile(tree, "<formula>", "eval")
    return eval(code, {"__builtins__": {}}, {**_NAMES, **variables})
''')
open("tests/test_calc.py", "w").write('''import pytest

from a23lib.calc import evaluate


@pytest.mark.parametrize("formula,kw,want", [
    ("1 + 2 * 3", {}, 7),
    ("max(a, b) - 1", {"a": 4, "b": 9}, 8),
    ("-x ** 2", {"x": 3}, -9),
    ("sqrt(16) + abs(-2)", {}, 6.0),
])
def test_evaluate(formula, kw, want):
    assert evaluate(formula, **kw) == want


def test_rejects_attributes():
    with pytest.raises(ValueError):
        evaluate("(1).__class__")
''')
