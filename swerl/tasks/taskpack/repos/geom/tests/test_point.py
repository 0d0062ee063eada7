import pytest

from geom.point import add, distance, dot, lerp, manhattan, midpoint, scale


def test_add():
    assert add((1, 2), (3, 5)) == (4, 7)


def test_scale():
    assert scale((2, -3), 3) == (6, -9)


def test_dot():
    assert dot((1, 2), (3, 4)) == 11


def test_distance():
    assert distance((0, 0), (3, 4)) == 5


def test_distance_offset():
    assert distance((1, 1), (4, 5)) == pytest.approx(5.0)


def test_manhattan():
    assert manhattan((1, 5), (4, 1)) == 7


def test_midpoint():
    assert midpoint((0, 0), (4, 6)) == (2, 3)


def test_lerp_quarter():
    assert lerp((0, 0), (8, 4), 0.25) == (2, 1)


def test_lerp_ends():
    assert lerp((1, 2), (5, 6), 1) == (5, 6)
