open("a23lib/slug.py", "w").write('''"""Slugs for titles."""
import re


def slugify(title):
    """Lower-case words joined by dashes."""
    words = re.findall(r"[A-Za-z0-9]+", title)
    return "-".join(w.lower() for w in words)
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import slugify

CASES = [("Hello World", "hello-world"), ("  Big  Cat ", "big-cat"), ("A1 b2", "a1-b2")]


@pytest.mark.parametrize("title,expected", CASES)
def test_slugify(title, expected):
    assert slugify(title) == expected


def test_plain():
    assert slugify("abc def") == "abc-def"
''')
