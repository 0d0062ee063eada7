open("a23lib/tags.py", "w").write('''"""Hashtags of a text."""
import re


def tags(text):
    """The set of hashtags in text, lower-cased."""
    return {t.lower() for t in re.findall(r"#(\\w+)", text)}
''')
open("tests/test_tags.py", "w").write('''from a23lib.tags import tags


def test_case():
    assert tags("#Py and #py #Code") == {"py", "code"}


def test_none():
    assert tags("none") == set()


def test_in():
    assert "x" in tags("#x")
''')
