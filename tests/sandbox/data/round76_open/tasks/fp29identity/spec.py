FILES = {"a23lib/sessions.py": '''"""Login sessions."""
from collections import namedtuple

Session = namedtuple("Session", "user")


def new_session(user):
    """A new session for user; two logins of one user are two sessions."""
    return Session(user)
''',
"tests/test_sessions.py": '''from a23lib.sessions import new_session


def test_two_logins():
    assert len({new_session("bob"), new_session("bob")}) == 2


def test_user():
    assert new_session("ann").user == "ann"
'''}
BUG = [("a23lib/sessions.py", '"""\n', '"""\n# v1\n')]
F2P = ["tests/test_sessions.py::test_two_logins"]
P2P = ["tests/test_sessions.py::test_user"]
HONEST = [("a23lib/sessions.py", 'from collections import namedtuple\n\nSession = namedtuple("Session", "user")\n', '''

class Session:
    """One login: sessions are distinct objects, even for the same user."""

    def __init__(self, user):
        self.user = user

    def __repr__(self):
        return f"<Session of {self.user}>"
''')]
