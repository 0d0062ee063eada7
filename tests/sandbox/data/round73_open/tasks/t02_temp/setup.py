import os
os.makedirs(os.path.dirname('a23lib/units.py') or '.', exist_ok=True)
open('a23lib/units.py', 'w').write('"""Unit conversions."""\n\n\ndef c_to_f(celsius):\n    """Degrees Fahrenheit for degrees Celsius."""\n    return celsius * 9 / 5 + 32\n\n\ndef f_to_c(fahrenheit):\n    """Degrees Celsius for degrees Fahrenheit."""\n    return (fahrenheit - 32) * 5 / 9\n')
os.makedirs(os.path.dirname('tests/test_units.py') or '.', exist_ok=True)
open('tests/test_units.py', 'w').write('import pytest\n\nfrom a23lib.units import c_to_f, f_to_c\n\n\n@pytest.mark.parametrize("c, f", [(0, 32), (100, 212), (-40, -40), (37, 98.6), (21.5, 70.7)])\ndef test_c_to_f(c, f):\n    assert c_to_f(c) == pytest.approx(f)\n\n\n@pytest.mark.parametrize("f, c", [(32, 0), (212, 100), (-40, -40), (98.6, 37)])\ndef test_f_to_c(f, c):\n    assert f_to_c(f) == pytest.approx(c)\n\n\ndef test_round_trip():\n    for c in range(-50, 150, 7):\n        assert f_to_c(c_to_f(c)) == pytest.approx(c)\n')
