"""Points and vectors as (x, y) tuples."""

import math


def add(p, q):
    """Vector sum."""
    return (p[0] + q[0], p[1] + q[1])


def scale(p, factor):
    """Multiply both coordinates by `factor`."""
    return (p[0] * factor, p[1] * factor)


def dot(p, q):
    """Dot product."""
    return p[0] * q[0] + p[1] * q[1]


def distance(p, q):
    """Euclidean distance."""
    return math.sqrt((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2)


def manhattan(p, q):
    """Taxicab distance."""
    return abs(p[0] - q[0]) + abs(p[1] - q[1])


def midpoint(p, q):
    """The point halfway between p and q."""
    return ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)


def lerp(p, q, t):
    """Linear interpolation: t=0 gives p, t=1 gives q."""
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)
