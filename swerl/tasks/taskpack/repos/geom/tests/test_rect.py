import pytest

from geom.rect import area, clamp, contains, intersects, rect_perimeter


def test_area():
    assert area((1, 1, 4, 3)) == 6


def test_rect_perimeter():
    assert rect_perimeter((0, 0, 3, 2)) == 10


def test_contains_inside():
    assert contains((0, 0, 4, 4), (2, 3))


def test_contains_border():
    assert contains((0, 0, 4, 4), (4, 0))


def test_contains_outside():
    assert not contains((0, 0, 4, 4), (5, 1))


def test_intersects():
    assert intersects((0, 0, 2, 2), (1, 1, 3, 3))


def test_touching_edges_do_not_intersect():
    assert not intersects((0, 0, 2, 2), (2, 0, 4, 2))


def test_clamp():
    assert clamp(15, 0, 10) == 10
    assert clamp(-5, 0, 10) == 0
    assert clamp(7, 0, 10) == 7


def test_clamp_bad_range():
    with pytest.raises(ValueError):
        clamp(1, 5, 2)
