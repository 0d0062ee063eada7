import os
os.makedirs(os.path.dirname('a23lib/temps.py') or '.', exist_ok=True)
open('a23lib/temps.py', 'w').write('"""Temperatures."""\n\n\nclass Celsius(float):\n    """Degrees Celsius."""\n\n    def __repr__(self):\n        return f"Celsius({float(self)!r})"\n\n\ndef from_fahrenheit(f):\n    return Celsius((f - 32) * 5 / 9)\n')
os.makedirs(os.path.dirname('tests/test_temps.py') or '.', exist_ok=True)
open('tests/test_temps.py', 'w').write('import pytest\n\nfrom a23lib.temps import Celsius, from_fahrenheit\n\n\n@pytest.mark.parametrize("f, c", [(70, 21.1), (98.6, 37.0), (0, -17.8), (212, 100.0)])\ndef test_from_fahrenheit(f, c):\n    assert round(from_fahrenheit(f), 1) == c\n\n\ndef test_type():\n    assert isinstance(from_fahrenheit(50), Celsius)\n')
