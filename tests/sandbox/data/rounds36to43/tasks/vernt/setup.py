open("a23lib/vernt.py", "w").write('''"""Release versions major.minor.patch, as named tuples (ordered field by field)."""
from typing import NamedTuple


def _num(text):
    return int(text)


class Version(NamedTuple):
    major: int
    minor: int = 0
    patch: int = 0

    @classmethod
    def parse(cls, text):
        return cls(*(_num(p) for p in text.split(".")))
''')
open("tests/test_vernt.py", "w").write('''from a23lib.vernt import Version


def test_two_digit_minor():
    assert Version.parse("1.10") > Version.parse("1.9")


def test_major():
    assert Version.parse("2.0") > Version.parse("1.5")
''')
