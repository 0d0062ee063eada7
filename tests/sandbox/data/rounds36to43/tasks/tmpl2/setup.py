open("a23lib/templates.py", "w").write('''"""Render templates: each is a Python expression over `args`."""
SLUG = '"-".join(args[0].lower().split())'
GREET = '"hi " + args[0]'
''')
open("a23lib/tmpl.py", "w").write('''"""A tiny template engine: each template in `templates.py` is a Python expression over `args`, compiled once."""
from a23lib import templates

_cache = {}


def load(name):
    """The compiled template `name` as a function of the render arguments."""
    if name not in _cache:
        src = "def render(*args):\\n    return " + getattr(templates, name) + "\\n"
        ns = {}
        exec(compile(src, "<template %s>" % name, "exec"), ns)
        _cache[name] = ns["render"]
    return _cache[name]
''')
open("a23lib/slug.py", "w").write('''"""Slugs and greetings, rendered from templates."""
from a23lib.tmpl import load


def slugify(text):
    return load("SLUG")(text)


def greet(name):
    return load("GREET")(name)
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import greet, slugify


@pytest.mark.parametrize("text,expected", [("Hello World", "hello-world"), ("A  B c", "a-b-c")], ids=["two", "three"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_greet():
    assert greet("bob") == "hi bob"
''')
