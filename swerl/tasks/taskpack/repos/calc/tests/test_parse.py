import pytest

from calc.parse import evaluate, tokenize


def test_tokenize():
    assert tokenize("2*(3 + 4)") == ["2", "*", "(", "3", "+", "4", ")"]


def test_precedence():
    assert evaluate("2 + 3 * 4") == 14


def test_parentheses():
    assert evaluate("(2 + 3) * 4") == 20


def test_power_right_assoc():
    assert evaluate("2 ^ 3 ^ 2") == 512


def test_power_binds_tighter_than_mul():
    assert evaluate("3 * 2 ^ 2") == 12


def test_unary_minus():
    assert evaluate("-3 + 5") == 2


def test_unary_minus_nested():
    assert evaluate("-(2 + 3) * 2") == -10


def test_float_division():
    assert evaluate("7 / 2") == 3.5


def test_bad_character():
    with pytest.raises(ValueError):
        evaluate("2 $ 3")
