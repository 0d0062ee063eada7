open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by single hyphens."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("tests/test_slug.py", "w").write('''from a23lib.slug import slugify

CASES = [
    ("Hello World", "hello-world"),
    ("  A  b ", "a-b"),
    ("x_y Z9", "x-y-z9"),
]


def test_slugify():
    for text, want in CASES:
        assert slugify(text) == want


def test_empty():
    assert slugify("") == ""
''')
