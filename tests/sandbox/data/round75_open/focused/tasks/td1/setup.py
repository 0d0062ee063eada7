import os
os.makedirs(os.path.dirname('a23lib/textutil.py') or '.', exist_ok=True)
open('a23lib/textutil.py', 'w').write('"""Small text helpers."""\n\n\ndef title_words(s):\n    """Capitalise each word, keeping the rest of the word as written.\n\n    >>> title_words("hello wide world")\n    \'Hello Wide World\'\n    >>> title_words("mcDonald\'s farm")\n    "McDonald\'s Farm"\n    """\n    return " ".join(w[:1].upper() + w[1:] for w in s.split(" "))\n\n\ndef initials(s):\n    """The first letter of each word, upper-cased.\n\n    >>> initials("portable network graphics")\n    \'PNG\'\n    """\n    return "".join(w[0].upper() for w in s.split())\n')
os.makedirs(os.path.dirname('tests/test_docs.py') or '.', exist_ok=True)
open('tests/test_docs.py', 'w').write('import doctest\n\nimport a23lib.textutil as textutil\n\n\ndef test_doctests():\n    assert doctest.testmod(textutil).failed == 0\n\n\ndef test_initials_direct():\n    assert textutil.initials("a b c") == "ABC"\n')
