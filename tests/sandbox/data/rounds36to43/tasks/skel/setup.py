import os
os.makedirs("a23lib/skeleton", exist_ok=True)
open("a23lib/skel.py", "w").write('''"""Render a new package's skeleton from the template files in `skeleton/` (`$name`, `$version`)."""
import os
import string

_DIR = os.path.join(os.path.dirname(__file__), "skeleton")


def render(name, version):
    out = {}
    for fn in sorted(os.listdir(_DIR)):
        with open(os.path.join(_DIR, fn)) as f:
            out[fn] = string.Template(f.read()).substitute(name=name, version=version)
    return out
''')
open("a23lib/skeleton/__init__.py", "w").write('''"""The $name package."""
from $name.core import main

__version__ = "$version"
''')
open("tests/test_skel.py", "w").write('''from a23lib.skel import render


def test_version():
    assert '__version__ = "1.2"' in render("demo", "1.2")["__init__.py"]


def test_import():
    assert "from demo.core import main" in render("demo", "1.2")["__init__.py"]
''')
