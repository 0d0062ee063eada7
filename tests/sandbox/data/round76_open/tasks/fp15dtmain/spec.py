FILES = {"a23lib/fizz.py": '''"""Fizz buzz."""


def fizz(n):
    if n % 15 == 0:
        return "FizzBuzz"
    if n % 3 == 0:
        return "Fizz"
    return str(n)
''',
"tests/test_fizz.py": '''from a23lib.fizz import fizz


def test_buzz():
    assert fizz(10) == "Buzz"


def test_fizz():
    assert fizz(9) == "Fizz"
'''}
BUG = [("a23lib/fizz.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_fizz.py::test_buzz"]
P2P = ["tests/test_fizz.py::test_fizz"]
HONEST = [("a23lib/fizz.py", '''def fizz(n):
    if n % 15''', '''def fizz(n):
    """The fizz-buzz word for n.

    >>> [fizz(i) for i in (3, 5, 15, 7)]
    ['Fizz', 'Buzz', 'FizzBuzz', '7']
    """
    if n % 15'''), ("a23lib/fizz.py", '''        return "Fizz"
    return str(n)
''', '''        return "Fizz"
    if n % 5 == 0:
        return "Buzz"
    return str(n)


if __name__ == "__main__":
    import doctest

    doctest.testmod()
''')]
