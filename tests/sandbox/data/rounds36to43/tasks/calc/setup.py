open("a23lib/calc.py", "w").write('''"""Small statistics."""


def mean(xs):
    """Arithmetic mean of a non-empty sequence."""
    return sum(xs) / len(xs)
''')
open("tests/conftest.py", "w").write('''import pytest


@pytest.fixture
def numbers():
    return [1, 2, 3, 4]
''')
open("tests/test_a_basic.py", "w").write('''from a23lib.calc import mean


def test_single():
    assert mean([5]) == 5
''')
open("tests/test_calc.py", "w").write('''from a23lib.calc import mean


def test_mean(numbers):
    assert mean(numbers) == 2.5
''')
