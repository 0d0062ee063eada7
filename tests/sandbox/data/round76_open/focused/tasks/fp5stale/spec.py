FILES = {
"a23lib/users.py": '''"""User accounts; names are compared without regard to case."""


class User:
    def __init__(self, name):
        self.name = name
        self._folded = name.casefold()

    def rename(self, name):
        self.name = name
        self._folded = name.casefold()

    def __eq__(self, other):
        if not isinstance(other, User):
            return NotImplemented
        return self.name.casefold() == other.name.casefold()

    def __hash__(self):
        return hash(self.name.casefold())

    def __repr__(self):
        return f"User({self.name!r})"
''',
"tests/test_users.py": '''from a23lib.users import User


def test_rename():
    u = User("ann")
    u.rename("Bo")
    assert u == User("bo")


def test_case():
    assert User("Ann") == User("ANN")


def test_different():
    assert User("Ann") != User("Bo")
''',
}
BUG = [("a23lib/users.py", "        self.name = name\n        self._folded = name.casefold()\n\n    def __eq__", "        self.name = name\n\n    def __eq__"),
       ("a23lib/users.py", "        return self.name.casefold() == other.name.casefold()", "        return self._folded == other._folded")]
F2P = ["tests/test_users.py::test_rename"]
P2P = ["tests/test_users.py::test_case", "tests/test_users.py::test_different"]
HONEST = [("a23lib/users.py", "        return self._folded == other._folded", "        return self.name.casefold() == other.name.casefold()  # never stale, whatever renamed it")]
