import os
os.makedirs("a23lib/templates", exist_ok=True)
open("a23lib/tmpl.py", "w").write('''"""A tiny template engine: each `templates/NAME.tmpl` is a Python expression over `args`, compiled once."""
import os

_DIR = os.path.join(os.path.dirname(__file__), "templates")
_cache = {}


def load(name):
    """The compiled template `name` as a function of the render arguments."""
    if name not in _cache:
        with open(os.path.join(_DIR, name + ".tmpl")) as f:
            body = f.read().strip()
        src = "def render(*args):\\n    return " + body + "\\n"
        ns = {}
        exec(compile(src, "<template %s>" % name, "exec"), ns)
        _cache[name] = ns["render"]
    return _cache[name]
''')
open("a23lib/templates/slug.tmpl", "w").write('"-".join(args[0].lower().split())\n')
open("a23lib/templates/greet.tmpl", "w").write('"hi " + args[0]\n')
open("a23lib/slug.py", "w").write('''"""Slugs and greetings, rendered from templates."""
from a23lib.tmpl import load


def slugify(text):
    return load("slug")(text)


def greet(name):
    return load("greet")(name)
''')
open("tests/test_slug.py", "w").write('''import pytest

from a23lib.slug import greet, slugify


@pytest.mark.parametrize("text,expected", [("Hello World", "hello-world"), ("A  B c", "a-b-c")], ids=["two", "three"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_greet():
    assert greet("bob") == "hi bob"
''')
