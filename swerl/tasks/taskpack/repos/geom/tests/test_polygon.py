import pytest

from geom.polygon import bounding_box, centroid, perimeter, polygon_area


def test_area_square():
    assert polygon_area([(0, 0), (2, 0), (2, 2), (0, 2)]) == 4


def test_area_triangle_clockwise():
    assert polygon_area([(0, 0), (0, 3), (4, 0)]) == 6


def test_area_degenerate():
    assert polygon_area([(0, 0), (1, 1)]) == 0


def test_perimeter():
    assert perimeter([(0, 0), (3, 0), (3, 4)]) == pytest.approx(12.0)


def test_centroid():
    assert centroid([(0, 0), (4, 0), (4, 2), (0, 2)]) == (2, 1)


def test_centroid_empty():
    with pytest.raises(ValueError):
        centroid([])


def test_bounding_box():
    assert bounding_box([(1, 5), (-2, 3), (4, -1)]) == (-2, -1, 4, 5)
