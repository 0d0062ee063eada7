import json
json.dump({"KB": 1024, "MB": 1048576, "GB": 1073741824}, open("a23lib/units.json", "w"))
open("a23lib/units.py", "w").write('''"""Byte-size units, from the table shipped with the package."""
import json
import os


def _table():
    with open(os.path.join(os.path.dirname(__file__), "units.json")) as fh:
        return json.load(fh)


def to_bytes(text):
    """`"2 MB"` -> 2097152."""
    number, unit = text.split()
    return int(float(number) * _table()[unit.upper()])
''')
open("tests/test_units.py", "w").write('''import os

from a23lib.units import to_bytes


def test_mb():
    assert to_bytes("2 MB") == 2097152


def test_from_elsewhere(tmp_path):
    os.chdir(tmp_path)
    assert to_bytes("1 kb") == 1024
''')
