import pytest

from seqtools.shape import chunk, flatten, interleave, rotate, window


def test_chunk_even():
    assert chunk([1, 2, 3, 4], 2) == [[1, 2], [3, 4]]


def test_chunk_remainder():
    assert chunk([1, 2, 3, 4, 5], 2) == [[1, 2], [3, 4], [5]]


def test_chunk_bad_size():
    with pytest.raises(ValueError):
        chunk([1, 2], 0)


def test_window_pairs():
    assert window([1, 2, 3, 4], 2) == [(1, 2), (2, 3), (3, 4)]


def test_window_full():
    assert window([1, 2, 3], 3) == [(1, 2, 3)]


def test_window_too_long():
    assert window([1, 2], 3) == []


def test_rotate_left():
    assert rotate([1, 2, 3, 4], 1) == [2, 3, 4, 1]


def test_rotate_right():
    assert rotate([1, 2, 3, 4], -1) == [4, 1, 2, 3]


def test_rotate_empty():
    assert rotate([], 3) == []


def test_interleave_equal():
    assert interleave([1, 3], [2, 4]) == [1, 2, 3, 4]


def test_interleave_leftovers():
    assert interleave([1, 3, 5, 7], [2]) == [1, 2, 3, 5, 7]


def test_flatten_one_level():
    assert flatten([1, [2, [3]], 4]) == [1, 2, [3], 4]


def test_flatten_deep():
    assert flatten([1, [2, [3, [4]]]], depth=3) == [1, 2, 3, 4]
