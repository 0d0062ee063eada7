open("a23lib/errors.py", "w").write('''"""Errors with numeric codes."""

REGISTRY = {}


class _Coded(type):
    """Registers each error class under its code."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if ns.get("code") is not None:
            REGISTRY[ns["code"]] = cls


class AppError(Exception, metaclass=_Coded):
    code = None


class NotFound(AppError):
    code = 404


class Conflict(AppError):
    code = 409


def error_for(code):
    """The error class for a numeric code."""
    return REGISTRY.get(code, AppError)
''')
open("tests/test_errors.py", "w").write('''from a23lib.errors import AppError, Conflict, NotFound, error_for


def test_lookup():
    assert error_for(404) is NotFound
    assert error_for(409) is Conflict


def test_unknown():
    assert error_for(999) is AppError
''')
