open("a23lib/opts.py", "w").write('''"""Options."""


class Options:
    """Settings with defaults; keyword arguments override them. Unknown names raise TypeError."""

    DEFAULTS = {"width": 80, "color": False, "indent": 2}

    def __init__(self, **overrides):
        unknown = set(overrides) - set(self.DEFAULTS)
        if unknown:
            raise TypeError("unknown options: %s" % ", ".join(sorted(unknown)))
        for key, value in {**self.DEFAULTS, **overrides}.items():
            setattr(self, key, value)
''')
open("tests/test_opts.py", "w").write('''import unittest

from a23lib.opts import Options


class OptionsTest(unittest.TestCase):
    def test_defaults(self):
        o = Options()
        self.assertEqual((o.width, o.color, o.indent), (80, False, 2))

    def test_override(self):
        o = Options(width=100, color=True)
        self.assertEqual((o.width, o.color, o.indent), (100, True, 2))

    def test_unknown(self):
        with self.assertRaises(TypeError):
            Options(colour=True)
''')
