open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by dashes; other characters dropped."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import slugify


@pytest.mark.parametrize("text, expected", [
    ("Hello World!", "hello-world"),
    ("  Mixed CASE  words ", "mixed-case-words"),
], ids=["hello", "mixed"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_empty():
    assert slugify("") == ""
''')
