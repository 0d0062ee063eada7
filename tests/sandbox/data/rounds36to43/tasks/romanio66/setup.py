import os
os.makedirs("tests/data", exist_ok=True)
open("a23lib/roman.py", "w").write('''"""Roman numerals."""

_UNITS = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]


def to_roman(n):
    """The Roman numeral of 1 <= n < 4000."""
    out = []
    for value, letters in _UNITS:
        while n >= value:
            out.append(letters)
            n -= value
    return "".join(out)
''')
open("a23lib/tables.py", "w").write('''"""Reading small typed CSV tables."""

import csv


def read_table(path, *types):
    """The rows of a CSV file with a header line, each cell converted by the matching type."""
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(csv.reader(fh))[1:]
    return [tuple(t(c) for t, c in zip(types, row)) for row in rows]
''')
open("tests/data/roman.csv", "w").write("n,numeral\n4,IV\n9,IX\n14,XIV\n1994,MCMXCIV\n2024,MMXXIV\n")
open("tests/test_roman.py", "w").write('''from pathlib import Path

import pytest

from a23lib.roman import to_roman
from a23lib.tables import read_table

CASES = read_table(Path(__file__).with_name("data") / "roman.csv", int, str)


@pytest.mark.parametrize(("n", "numeral"), CASES, ids=[f"{n}" for n, _ in CASES])
def test_to_roman(n, numeral):
    assert to_roman(n) == numeral


def test_read_table():
    assert CASES[0] == (4, "IV")
''')
