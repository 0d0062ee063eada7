open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words joined by dashes; other characters dropped."""
    words = re.findall(r"[A-Za-z0-9]+", text)
    return "-".join(w.lower() for w in words)
''')
open("tests/test_slug.py", "w").write('''from a23lib.slug import slugify


def test_slug():
    assert slugify("Hello World!") == "hello-world"


def test_empty():
    assert slugify("") == ""
''')
