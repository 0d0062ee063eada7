"""textkit: small text utilities."""

from textkit.case import camel_case, snake_case
from textkit.slug import slugify
from textkit.wrap import wrap

__all__ = ["camel_case", "slugify", "snake_case", "wrap"]
