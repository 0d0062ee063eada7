"""Identifier case conversion."""

import re

_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|[_\-\s]+")


def split_words(name):
    """Split an identifier written in any common case into lowercase words."""
    return [w.lower() for w in _BOUNDARY.split(name) if w]


def snake_case(name):
    """`HTTPServer` style input is not special-cased: `someName` -> `some_name`."""
    return "_".join(split_words(name))


def camel_case(name):
    """`some_name` -> `someName`."""
    words = split_words(name)
    if not words:
        return ""
    return words[0] + "".join(w.capitalize() for w in words[1:])
