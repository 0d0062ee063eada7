import os
os.makedirs(os.path.dirname('a23lib/opts.py') or '.', exist_ok=True)
open('a23lib/opts.py', 'w').write('"""Options objects."""\n\nDEFAULTS = {"retries": 3, "timeout": 10.0, "verbose": False}\n\n\nclass Options:\n    def __init__(self, **overrides):\n        unknown = set(overrides) - set(DEFAULTS)\n        if unknown:\n            raise TypeError(f"unknown options: {sorted(unknown)}")\n        for name, value in {**DEFAULTS, **overrides}.items():\n            setattr(self, name, value)\n')
os.makedirs(os.path.dirname('tests/test_opts.py') or '.', exist_ok=True)
open('tests/test_opts.py', 'w').write('import pytest\n\nfrom a23lib.opts import Options\n\n\ndef test_override():\n    o = Options(timeout=2.5)\n    assert (o.retries, o.timeout, o.verbose) == (3, 2.5, False)\n\n\ndef test_unknown():\n    with pytest.raises(TypeError):\n        Options(colour=True)\n')
