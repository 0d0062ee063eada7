open("a23lib/utils.py", "w").write('''"""Small helpers."""
import importlib


def import_string(dotted_path):
    """Import a dotted module path and return the attribute named by its last part (Django's `import_string`)."""
    module_path, _, name = dotted_path.rpartition(".")
    module = importlib.import_module(module_path)
    return getattr(module, name)


def slugify(text):
    """A URL slug: lower-case words joined by dashes."""
    return "-".join(text.lower().split())
''')
open("tests/test_utils.py", "w").write('''import pytest

from a23lib.utils import import_string, slugify


@pytest.mark.parametrize("text,expected", [("Hello World", "hello-world"), ("A  B c", "a-b-c")], ids=["two", "three"])
def test_slug(text, expected):
    assert slugify(text) == expected


def test_import_string():
    assert import_string("os.path.join") is __import__("os").path.join
''')
