import os
os.makedirs(os.path.dirname('a23lib/sessions.py') or '.', exist_ok=True)
open('a23lib/sessions.py', 'w').write('"""Login sessions."""\nfrom collections import namedtuple\n\nSession = namedtuple("Session", "user")\n\n\ndef new_session(user):\n    """A new session for user; two logins of one user are two sessions."""\n    return Session(user)\n')
os.makedirs(os.path.dirname('tests/test_sessions.py') or '.', exist_ok=True)
open('tests/test_sessions.py', 'w').write('from a23lib.sessions import new_session\n\n\ndef test_two_logins():\n    assert len({new_session("bob"), new_session("bob")}) == 2\n\n\ndef test_user():\n    assert new_session("ann").user == "ann"\n')
