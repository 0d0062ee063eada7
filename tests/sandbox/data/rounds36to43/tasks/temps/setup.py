import os
os.makedirs(os.path.dirname('a23lib/temps.py') or '.', exist_ok=True)
open('a23lib/temps.py', 'w').write('"""Temperature conversion."""\n\n\ndef to_celsius(fahrenheit):\n    """Degrees Fahrenheit to degrees Celsius."""\n    return (fahrenheit - 32) * 5 / 9\n')
os.makedirs(os.path.dirname('tests/test_temps.py') or '.', exist_ok=True)
open('tests/test_temps.py', 'w').write('import pytest\n\nfrom a23lib.temps import to_celsius\n\n\n@pytest.mark.parametrize("f,c", [(212, 100.0), (98.6, 37.0), (-40, -40.0), (50, 10.0)])\ndef test_to_celsius(f, c):\n    assert to_celsius(f) == pytest.approx(c)\n\n\ndef test_freezing():\n    assert to_celsius(32) == 0\n')
