import os
os.makedirs(os.path.dirname('a23lib/numeric.py') or '.', exist_ok=True)
open('a23lib/numeric.py', 'w').write('"""Numeric helpers without math."""\n\n\ndef isqrt_newton(x, tol=1e-12):\n    """The square root of x >= 0 by Newton\'s method, to relative tolerance tol."""\n    if x == 0:\n        return 0.0\n    g = x if x >= 1 else 1.0\n    while True:\n        nxt = (g + x / g) / 2\n        if abs(nxt - g) <= tol * nxt:\n            return nxt\n        g = nxt\n')
os.makedirs(os.path.dirname('tests/test_numeric.py') or '.', exist_ok=True)
open('tests/test_numeric.py', 'w').write('import math\n\nimport pytest\n\nfrom a23lib.numeric import isqrt_newton\n\n\n@pytest.mark.parametrize("x", [0, 1, 2, 9, 0.25, 10.5])\ndef test_sqrt(x):\n    assert isqrt_newton(x) == pytest.approx(math.sqrt(x))\n\n\ndef test_square():\n    assert isqrt_newton(16) == 4.0\n')
