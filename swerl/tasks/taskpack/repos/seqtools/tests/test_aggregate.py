import pytest

from seqtools.aggregate import argmax, argmin, count_runs, running_max, running_sum


def test_running_sum():
    assert running_sum([1, 2, 3, 4]) == [1, 3, 6, 10]


def test_running_sum_negative():
    assert running_sum([5, -2, 4]) == [5, 3, 7]


def test_running_max():
    assert running_max([1, 3, 2, 5, 4]) == [1, 3, 3, 5, 5]


def test_argmax():
    assert argmax([3, 9, 2, 9]) == 1


def test_argmax_first():
    assert argmax([8, 1, 2]) == 0


def test_argmax_empty():
    with pytest.raises(ValueError):
        argmax([])


def test_argmin():
    assert argmin([4, 1, 7, 1]) == 1


def test_argmin_last():
    assert argmin([4, 6, 2]) == 2


def test_count_runs():
    assert count_runs([1, 1, 2, 3, 3, 3]) == [(1, 2), (2, 1), (3, 3)]


def test_count_runs_empty():
    assert count_runs([]) == []
