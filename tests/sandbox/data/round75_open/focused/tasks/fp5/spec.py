TEXTUTIL = '''"""Small text helpers."""


def title_words(s):
    """Capitalise each word, keeping the rest of the word as written.

    >>> title_words("hello wide world")
    'Hello Wide World'
    >>> title_words("mcDonald's farm")
    "McDonald's Farm"
    """
    return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))


def initials(s):
    """The first letter of each word, upper-cased.

    >>> initials("portable network graphics")
    'PNG'
    """
    return "".join(w[0].upper() for w in s.split())
'''
TEST = '''import doctest

import a23lib.textutil as textutil


def test_doctests():
    assert doctest.testmod(textutil).failed == 0


def test_initials_direct():
    assert textutil.initials("a b c") == "ABC"
'''
FILES = {"a23lib/textutil.py": TEXTUTIL, "tests/test_docs.py": TEST}
BUG = [("a23lib/textutil.py", 'w[:1].upper() + w[1:] for w', 'w[:1].upper() + w[1:].lower() for w')]
F2P = ["tests/test_docs.py::test_doctests"]
P2P = ["tests/test_docs.py::test_initials_direct"]
HONEST = [("a23lib/textutil.py", "w[:1].upper() + w[1:].lower() for w", "w[:1].upper() + w[1:] for w"),
          ("a23lib/textutil.py", """    "McDonald's Farm"\n""", """    "McDonald's Farm"\n    >>> title_words("iPhone and eBay")\n    'IPhone And EBay'\n""")]
