import os
import sqlite3
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
open("a23lib/store.py", "w").write('''"""A small persistent key-value cache on SQLite."""

import sqlite3


class Store:
    def __init__(self, path=":memory:"):
        self.db = sqlite3.connect(path)
        self.db.execute("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT)")

    def get(self, key, default=None):
        row = self.db.execute("SELECT v FROM kv WHERE k = ?", (key,)).fetchone()
        return default if row is None else row[0]

    def put(self, key, value):
        self.db.execute("INSERT OR REPLACE INTO kv VALUES (?, ?)", (key, value))
        self.db.commit()
''')
if os.path.exists("tests/data/cases.db"):
    os.remove("tests/data/cases.db")
db = sqlite3.connect("tests/data/cases.db")
db.execute("CREATE TABLE roman (n INTEGER, numeral TEXT)")
db.executemany("INSERT INTO roman VALUES (?, ?)", [(4, "IV"), (9, "IX"), (14, "XIV"), (1994, "MCMXCIV"), (2024, "MMXXIV")])
db.commit(); db.close()
open("tests/test_roman.py", "w").write('''import sqlite3
from pathlib import Path

import pytest

from a23lib.roman import to_roman

DB = Path(__file__).parent / "data" / "cases.db"


def cases():
    con = sqlite3.connect(f"file:{DB}?mode=ro", uri=True)
    try:
        return con.execute("SELECT n, numeral FROM roman ORDER BY n").fetchall()
    finally:
        con.close()


@pytest.mark.parametrize("n,numeral", cases())
def test_to_roman(n, numeral):
    assert to_roman(n) == numeral


def test_small():
    assert to_roman(8) == "VIII"
''')
