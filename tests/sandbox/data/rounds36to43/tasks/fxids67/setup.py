src = open("/tmp/attack67/tasks/rmix/roman_src.txt").read()
src += '''

def describe(value):
    """A one-line description of a value, for logs and reports."""
    if isinstance(value, tuple):
        return "/".join(describe(v) for v in value)
    return str(value)
'''
open("a23lib/roman.py", "w").write(src)
open("tests/test_roman_fx.py", "w").write('''import pytest

from a23lib.roman import describe, from_roman, to_roman


@pytest.fixture(params=[(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV")], ids=describe)
def case(request):
    return request.param


def test_to_roman(case):
    n, want = case
    assert to_roman(n) == want


def test_from_roman(case):
    n, text = case
    assert from_roman(text) == n
''')
