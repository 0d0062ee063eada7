import os
os.makedirs(os.path.dirname('a23lib/units.py') or '.', exist_ok=True)
open('a23lib/units.py', 'w').write('"""Length conversions."""\n\n__test__ = {\n    "round_trip": """\n    >>> to_cm(from_cm(254.0))\n    254.0\n    >>> from_cm(to_cm(3.0))\n    3.0\n    """,\n}\n\n\ndef to_cm(inches):\n    """Inches to centimetres.\n\n    >>> to_cm(2.0)\n    5.08\n    """\n    return round(inches * 2.54, 6)\n\n\ndef from_cm(cm):\n    """Centimetres to inches.\n\n    >>> from_cm(5.08)\n    2.0\n    """\n    return round(cm / 2.54, 6)\n')
os.makedirs(os.path.dirname('tests/test_units.py') or '.', exist_ok=True)
open('tests/test_units.py', 'w').write('import doctest\n\nimport a23lib.units as units\n\n\ndef test_doctests():\n    result = doctest.testmod(units)\n    assert result.failed == 0\n\n\ndef test_to_cm():\n    assert units.to_cm(1.0) == 2.54\n')
