import os
open("a23lib/util.py", "w").write('''"""Small helpers shared by the package."""


def compose(*funcs):
    """Chain single-argument callables left to right."""
    def run(value):
        for fn in funcs:
            value = fn(value)
        return value
    return run


def first(items, pred=bool, default=None):
    """The first item for which pred holds."""
    for item in items:
        if pred(item):
            return item
    return default
''')
open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re

_NON_WORD = re.compile(r"[^a-z0-9]+")


def slugify(text):
    """Lower-case words joined by single dashes, no dashes at the ends."""
    text = text.lower()
    text = _NON_WORD.sub("-", text)
    return text.strip("-")
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import slugify

CASES = [
    dict(text="Hello World", want="hello-world"),
    dict(text="  Many   spaces  ", want="many-spaces"),
    dict(text="Already-slugged", want="already-slugged"),
    dict(text="Caf\\u00e9 & Bar!", want="caf-bar"),
    dict(text="__init__ method", want="init-method"),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["want"])
def test_slugify(case):
    assert slugify(case["text"]) == case["want"]


def test_empty():
    assert slugify("") == ""
''')
