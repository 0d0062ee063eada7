import os
os.makedirs("testdata", exist_ok=True)
open("a23lib/slug.py", "w").write('''"""URL slugs."""

import re
import unicodedata


def slugify(text):
    """Lower-case ASCII words joined by hyphens; accents folded."""
    text = unicodedata.normalize("NFKD", text)
    text = text.encode("ascii", "ignore").decode("ascii")
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)
''')
open("testdata/slugs.csv", "w").write('''text,slug
Hello World,hello-world
Crème Brûlée,creme-brulee
  Ünïcödé   input ,unicode-input
Tea & Cake 2024,tea-cake-2024
''')
open("tests/test_slug.py", "w").write('''import csv
from pathlib import Path

import pytest

from a23lib.slug import slugify

ROOT = Path(__file__).resolve().parent.parent


def load_rows():
    with open(ROOT / "testdata" / "slugs.csv", newline="", encoding="utf-8") as fh:
        return [(r["text"], r["slug"]) for r in csv.DictReader(fh)]


ROWS = load_rows()


@pytest.mark.parametrize("text,slug", ROWS, ids=[slug for _, slug in ROWS])
def test_slugify(text, slug):
    assert slugify(text) == slug


def test_empty():
    assert slugify("") == ""
''')
