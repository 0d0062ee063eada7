import os
os.makedirs(os.path.dirname('a23lib/ops.py') or '.', exist_ok=True)
open('a23lib/ops.py', 'w').write('"""Named arithmetic operations."""\n\n\ndef op_add(a, b):\n    return a + b\n\n\ndef op_sub(a, b):\n    return a - b\n\n\ndef apply(name, a, b):\n    fn = globals().get(f"op_{name}")\n    if fn is None:\n        raise ValueError(name)\n    return fn(a, b)\n')
os.makedirs(os.path.dirname('tests/test_fp41globals.py') or '.', exist_ok=True)
open('tests/test_fp41globals.py', 'w').write('import pytest\n\nfrom a23lib.ops import apply\n\n\ndef test_sub():\n    assert apply("sub", 5, 3) == 2\n\n\ndef test_unknown():\n    with pytest.raises(ValueError):\n        apply("pow", 1, 2)\n')
