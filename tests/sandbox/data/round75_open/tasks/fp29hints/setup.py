import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Checked calls."""\nimport functools\nimport inspect\nimport typing\n\n\ndef checked(fn):\n    hints = typing.get_type_hints(fn)\n\n    @functools.wraps(fn)\n    def wrapper(*args):\n        for name, value in zip(inspect.signature(fn).parameters, args):\n            if name in hints and not isinstance(value, hints[name]):\n                raise TypeError(f"{name} must be {hints[name].__name__}")\n        return fn(*args)\n    return wrapper\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('import pytest\n\nfrom a23lib.m import checked\n\n\n@checked\ndef area(w: int, h: int) -> int:\n    return w * h\n\n\ndef test_wrong_type():\n    with pytest.raises(TypeError):\n        area(2, "3")\n')
