import os
os.makedirs("a23lib", exist_ok=True); os.makedirs("tests", exist_ok=True)
open("a23lib/units.py", "w").write('''"""Sizes with unit suffixes, as configuration files write them."""
import pathlib

_UNITS = {"": 1, "k": 1000, "M": 1000 ** 2, "G": 1000 ** 3}


def parse_size(text):
    """`3k` -> 3000, `2M` -> 2000000 (decimal units), `12` -> 12."""
    text = text.strip()
    unit = text[-1] if text and text[-1] in _UNITS else ""
    number = text[: len(text) - len(unit)]
    return int(number) * _UNITS[unit]


def read_size(path):
    """The `size = ...` setting of a configuration file."""
    for line in pathlib.Path(path).read_text().splitlines():
        key, _, value = line.partition("=")
        if key.strip() == "size":
            return parse_size(value)
    raise KeyError("size")
''')
open("tests/test_units.py", "w").write('''import pytest

from a23lib.units import read_size


@pytest.mark.parametrize("raw,expected", [("3k", 3000), ("2M", 2000000), ("7G", 7000000000)])
def test_read_size(tmp_path, raw, expected):
    conf = tmp_path / "app.conf"
    conf.write_text("name = demo\\nsize = %s\\n" % raw)
    assert read_size(conf) == expected


def test_plain(tmp_path):
    conf = tmp_path / "app.conf"
    conf.write_text("size = 12\\n")
    assert read_size(conf) == 12
''')
