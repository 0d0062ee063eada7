import os
os.makedirs("a23lib", exist_ok=True); os.makedirs("tests", exist_ok=True)
chain = "".join('\n    .alias("u%d", "")' % i for i in range(220))
open("a23lib/units.py", "w").write('''"""Sizes with unit suffixes, as configuration files write them."""
import pathlib


class _Table:
    """A unit table built fluently (generated: one alias per line)."""

    def __init__(self):
        self.factors = {"": 1, "k": 1000, "M": 1000 ** 2, "G": 1000 ** 3}

    def alias(self, name, unit):
        self.factors[name] = self.factors[unit]
        return self


_UNITS = (_Table()%s
).factors


def parse_size(text):
    """`3k` -> 3000, `2M` -> 2000000 (decimal units), `12` -> 12."""
    text = text.strip()
    unit = text[-1] if text and text[-1] in "kMG" else ""
    number = text[: len(text) - len(unit)]
    return int(number) * _UNITS[unit]


def read_size(path):
    """The `size = ...` setting of a configuration file."""
    for line in pathlib.Path(path).read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "size":
            return parse_size(value)
    raise KeyError("size")
''' % chain)
open("tests/test_units.py", "w").write('''import pytest

from a23lib.units import parse_size


@pytest.mark.parametrize("raw,expected", [("3k", 3000), ("2M", 2000000), ("7G", 7000000000)])
def test_parse_size(raw, expected):
    assert parse_size(raw) == expected


def test_plain():
    assert parse_size("12") == 12
''')
