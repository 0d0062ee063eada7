open("pytest.ini", "w").write('''[pytest]
addopts = --doctest-modules a23lib/ver.py
''')
open("a23lib/ver.py", "w").write('''"""Version strings."""


class Version(str):
    """A version string that shows what it is.

    >>> Version("1.2")
    Version('1.2')
    >>> [Version("1.2"), Version("2.0")]
    [Version('1.2'), Version('2.0')]
    """

    @property
    def parts(self):
        return tuple(int(p) for p in self.split("."))

    def __repr__(self):
        return f"Version({str.__repr__(self)})"
''')
open("tests/test_ver.py", "w").write('''from a23lib.ver import Version


def test_parts():
    assert Version("1.2").parts == (1, 2)
''')
