"""Simple polygons as lists of (x, y) vertices."""

from geom.point import distance


def polygon_area(vertices):
    """Area by the shoelace formula (always non-negative)."""
    n = len(vertices)
    if n < 3:
        return 0.0
    total = 0.0
    for i in range(n):
        x0, y0 = vertices[i]
        x1, y1 = vertices[(i + 1) % n]
        total += x0 * y1 - x1 * y0
    return abs(total) / 2


def perimeter(vertices):
    """Length of the closed boundary."""
    n = len(vertices)
    return sum(distance(vertices[i], vertices[(i + 1) % n]) for i in range(n))


def centroid(vertices):
    """Mean of the vertices."""
    if not vertices:
        raise ValueError("centroid of no points")
    n = len(vertices)
    return (sum(v[0] for v in vertices) / n, sum(v[1] for v in vertices) / n)


def bounding_box(vertices):
    """The smallest rectangle (x0, y0, x1, y1) holding every vertex."""
    xs = [v[0] for v in vertices]
    ys = [v[1] for v in vertices]
    return (min(xs), min(ys), max(xs), max(ys))
