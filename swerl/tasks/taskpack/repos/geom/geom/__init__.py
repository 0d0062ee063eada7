"""geom: plane geometry on (x, y) tuples."""

from geom.point import add, distance, dot, lerp, manhattan, midpoint, scale
from geom.polygon import bounding_box, centroid, perimeter, polygon_area
from geom.rect import area, clamp, contains, intersects, rect_perimeter

__all__ = ["add", "area", "bounding_box", "centroid", "clamp", "contains", "distance", "dot", "intersects",
           "lerp", "manhattan", "midpoint", "perimeter", "polygon_area", "rect_perimeter", "scale"]
