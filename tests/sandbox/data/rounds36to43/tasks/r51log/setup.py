import os
os.makedirs("a23lib", exist_ok=True); os.makedirs("tests", exist_ok=True)
open("a23lib/slug.py", "w").write('''"""URL slugs."""
import re


def slugify(text):
    """Lower-case words of `text` joined by single dashes."""
    return "-".join(w for w in re.split(r"[^a-z0-9]+", text.lower()) if w)
''')
open("a23lib/__main__.py", "w").write('''"""python -m a23lib TEXT: print the slug of TEXT."""
import sys

from a23lib.slug import slugify


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    print(slugify(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
''')
open("tests/test_slug.py", "w").write('''import subprocess
import sys

import pytest

from a23lib.slug import slugify


@pytest.mark.parametrize("text,expected", [("Hello.World", "hello-world"), ("Foo_Bar.Baz", "foo-bar-baz")])
def test_cli(text, expected):
    out = subprocess.run([sys.executable, "-m", "a23lib", text], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == expected


def test_single():
    assert slugify("word") == "word"
''')
