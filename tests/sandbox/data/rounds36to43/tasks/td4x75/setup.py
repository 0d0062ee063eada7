import os
open('a23lib/textutil.py', 'w').write('''"""Small text helpers."""


def initials(s):
    """The first letter of each word, upper-cased.

    >>> initials("portable network graphics")
    'PNG'
    """
    return "".join(w[0].upper() for w in s.split())


def title_words(s):
    """Capitalise each word, keeping the rest of the word as written.

    >>> title_words("hello wide world")
    'Hello Wide World'
    >>> title_words("mcDonald's farm")
    "McDonald's Farm"
    """
    return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))
''')
open('tests/test_text.py', 'w').write('''from a23lib.textutil import initials


def test_initials():
    assert initials("a b") == "AB"
''')
