open("a23lib/slug.py", "w").write('''"""Slugs for titles."""
import re


def slugify(text):
    """Lower-case words joined by dashes.

    >>> slugify("a b")
    'a-b'
    """
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))
''')
open("tests/test_slug.py", "w").write('''import doctest

import a23lib.slug as slug


def test_doctests():
    assert doctest.testmod(slug).failed == 0


def test_plain():
    assert slug.slugify("hello world") == "hello-world"


def test_caps():
    assert slug.slugify("Hello World 42") == "hello-world-42"
''')
