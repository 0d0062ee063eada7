"""Axis-aligned rectangles as (x0, y0, x1, y1) with x0 <= x1 and y0 <= y1."""


def area(rect):
    """Width times height."""
    x0, y0, x1, y1 = rect
    return (x1 - x0) * (y1 - y0)


def rect_perimeter(rect):
    """Twice the sum of width and height."""
    x0, y0, x1, y1 = rect
    return 2 * ((x1 - x0) + (y1 - y0))


def contains(rect, point):
    """True if `point` lies inside or on the border."""
    x0, y0, x1, y1 = rect
    x, y = point
    return x0 <= x <= x1 and y0 <= y <= y1


def intersects(a, b):
    """True if the rectangles overlap with positive area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def clamp(value, low, high):
    """`value` limited to the range [low, high]."""
    if low > high:
        raise ValueError("low must not exceed high")
    return max(low, min(value, high))
