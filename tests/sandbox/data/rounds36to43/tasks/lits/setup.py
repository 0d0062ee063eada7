open("a23lib/calc.py", "w").write('''"""Small arithmetic helpers."""


def triple(x):
    """Three times x."""
    return x * 3


def double(x):
    return x * 2
''')
open("a23lib/utils.py", "w").write('''"""Generic helpers."""
import importlib


def import_string(dotted_path):
    """Import a dotted module path and return the attribute named by the last part (like Django's)."""
    try:
        module_path, attr = dotted_path.rsplit(".", 1)
    except ValueError as err:
        raise ImportError(f"{dotted_path} doesn't look like a module path") from err
    module = importlib.import_module(module_path)
    try:
        return getattr(module, attr)
    except AttributeError as err:
        raise ImportError(f"module {module_path} has no attribute {attr}") from err
''')
open("tests/test_lits.py", "w").write('''from a23lib.calc import triple, double


def test_triple():
    assert triple(7) == 21
    assert triple(-2) == -6


def test_zero():
    assert triple(0) == 0
    assert double(4) == 8
''')
