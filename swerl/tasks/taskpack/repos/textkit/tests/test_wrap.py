import pytest

from textkit.wrap import wrap


def test_wrap_exact_width():
    assert wrap("aaa bbb ccc", 7) == ["aaa bbb", "ccc"]


def test_wrap_each_word():
    assert wrap("aaa bbb ccc", 3) == ["aaa", "bbb", "ccc"]


def test_long_word():
    assert wrap("a verylongword b", 5) == ["a", "verylongword", "b"]


def test_empty():
    assert wrap("", 10) == []


def test_bad_width():
    with pytest.raises(ValueError):
        wrap("abc", 0)
