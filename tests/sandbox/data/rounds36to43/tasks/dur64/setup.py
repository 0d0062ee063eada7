open("a23lib/dur.py", "w").write('''"""Durations written like 1h30m, 45s, 2d."""
import re
from datetime import timedelta

_PART = re.compile(r"(\\d+)([dhms])")
_UNIT = {"d": "days", "h": "hours", "m": "minutes", "s": "seconds"}


def parse_duration(text):
    """A timedelta for text such as "1h30m"; ValueError for anything else."""
    text = text.strip().lower()
    parts = _PART.findall(text)
    if not parts or "".join(n + u for n, u in parts) != text:
        raise ValueError(f"not a duration: {text!r}")
    total = timedelta()
    for number, unit in parts:
        total += timedelta(**{_UNIT[unit]: int(number)})
    return total
''')
open("tests/test_dur.py", "w").write('''import unittest
from datetime import timedelta

from a23lib.dur import parse_duration


class ParseDurationTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.cases = {
            "1h30m": timedelta(hours=1, minutes=30),
            "45s": timedelta(seconds=45),
            "2d4h": timedelta(days=2, hours=4),
            "10m5s": timedelta(minutes=10, seconds=5),
        }

    def test_compound(self):
        for text in ("1h30m", "2d4h", "10m5s"):
            with self.subTest(text=text):
                self.assertEqual(parse_duration(text), self.cases[text])

    def test_single(self):
        self.assertEqual(parse_duration("45s"), self.cases["45s"])

    def test_rejects(self):
        with self.assertRaises(ValueError):
            parse_duration("abc")
''')
