open("a23lib/text.py", "w").write('''"""Text helpers."""
import sys


def caller_vars(level=0):
    """The variables visible to the function `level` frames above our caller (pandas' `@name` lookups)."""
    frame = sys._getframe(level + 2)
    names = dict(frame.f_globals)
    names.update(frame.f_locals)
    return names


def render(template, level=0):
    """Format `template` with the caller's variables: `render("hi {name}")`."""
    return template.format(**caller_vars(level))


def slugify(text):
    """A URL slug: lower-case words joined by dashes."""
    return "-".join(text.lower().split())
''')
open("tests/test_text.py", "w").write('''import pytest

from a23lib.text import render, slugify


@pytest.mark.parametrize("text,expected", [("hello world", "hello-world"), ("Hello World", "hello-world"), ("A  B c", "a-b-c")], ids=["lower", "two", "three"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_render():
    name = "bob"
    assert render("hi {name}") == "hi bob"
''')
