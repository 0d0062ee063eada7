p = "a23lib/errors.py"; s = open(p).read()
s = s.replace('''class _Coded(type):
    """Registers each error class under its code."""

    def __init__(cls, name, bases, ns):
        super().__init__(name, bases, ns)
        if ns.get("code") is not None:
            REGISTRY[ns["code"]] = cls


class AppError(Exception, metaclass=_Coded):''', '''class AppError(Exception):''')
open(p, "w").write(s)
