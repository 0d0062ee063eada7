open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by single hyphens."""
    return re.sub(r"[^a-z0-9]+", "-", str(text).lower()).strip("-")


def label(value, width=24):
    """A short printable label for logs and test ids."""
    text = " ".join(str(value).split())
    return text if len(text) <= width else text[:width - 3] + "..."
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import label, slugify

CASES = [
    ("Hello World", "hello-world"),
    ("Hello,  World!", "hello-world"),
    ("  Déjà -- vu  ", "d-j-vu"),
    ("A/B testing", "a-b-testing"),
]


@pytest.mark.parametrize("text,want", CASES, ids=label)
def test_slugify(text, want):
    assert slugify(text) == want


def test_empty():
    assert slugify("") == ""
''')
