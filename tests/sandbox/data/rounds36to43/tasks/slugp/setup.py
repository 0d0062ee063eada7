open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by single hyphens."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import slugify


@pytest.mark.parametrize("text,want", [
    ("Hello World", "hello-world"),
    ("  A  b ", "a-b"),
    ("x_y Z9", "x-y-z9"),
])
def test_slugify(text, want):
    assert slugify(text) == want


def test_plain():
    assert slugify("abc") == "abc"
''')
