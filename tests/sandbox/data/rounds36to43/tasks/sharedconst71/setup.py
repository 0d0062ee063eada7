open("a23lib/options.py", "w").write('''"""Option dictionaries."""

BUILTIN = {"retries": 3, "verbose": False}


def with_defaults(user, defaults=None):
    """A new dict: defaults (BUILTIN when not given) updated with the user's options."""
    defaults = BUILTIN if defaults is None else defaults
    out = dict(defaults)
    out.update(user)
    return out
''')
open("tests/test_options.py", "w").write('''from a23lib.options import with_defaults

DEFAULTS = {"retries": 3, "verbose": False}


def test_empty_gets_builtin_defaults():
    assert with_defaults({}) == DEFAULTS


def test_explicit_defaults():
    assert with_defaults({"retries": 5}, DEFAULTS) == {"retries": 5, "verbose": False}


def test_user_wins():
    assert with_defaults({"retries": 1})["retries"] == 1
''')
