import os
os.makedirs("a23lib/codecs", exist_ok=True)
open("a23lib/codecs/__init__.py", "w").write('''"""Codecs, one module each."""
from . import rot13, upper


def get(name):
    """The codec module called `name`."""
    return {"rot13": rot13, "upper": upper}[name]
''')
open("a23lib/codecs/rot13.py", "w").write('''import codecs


def encode(text):
    return codecs.encode(text, "rot13")
''')
open("a23lib/codecs/upper.py", "w").write('''def encode(text):
    return text.upper()
''')
open("a23lib/codecs/reverse.py", "w").write('''def encode(text):
    return text[::-1]
''')
open("tests/test_codecs.py", "w").write('''from a23lib import codecs


def test_reverse():
    assert codecs.get("reverse").encode("abc") == "cba"


def test_upper():
    assert codecs.get("upper").encode("abc") == "ABC"
''')
