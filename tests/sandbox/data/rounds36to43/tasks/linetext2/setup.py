open("a23lib/linetext2.py", "w").write('''"""Greeting lines."""


class Line:
    """One line of output text."""

    def __init__(self, text):
        self.text = text

    def startswith(self, prefix):
        return self.text.startswith(prefix)

    def __str__(self):
        return str(self.text)


def greet(name):
    return Line("Hello, " + name)
''')
open("tests/test_linetext2.py", "w").write('''from a23lib.linetext2 import greet


def test_greeting():
    assert greet("Bob").startswith("Hello, Bob")


def test_str():
    assert "Bob" in str(greet("Bob"))
''')
