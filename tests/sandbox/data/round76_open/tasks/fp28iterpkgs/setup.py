import os
os.makedirs(os.path.dirname('a23lib/plugins/__init__.py') or '.', exist_ok=True)
open('a23lib/plugins/__init__.py', 'w').write('"""Plugins: every module of this package."""\n\n\ndef names():\n    """The plugin modules\' names, sorted."""\n    return ["alpha"]\n')
os.makedirs(os.path.dirname('a23lib/plugins/alpha.py') or '.', exist_ok=True)
open('a23lib/plugins/alpha.py', 'w').write('X = 1\n')
os.makedirs(os.path.dirname('a23lib/plugins/beta.py') or '.', exist_ok=True)
open('a23lib/plugins/beta.py', 'w').write('X = 2\n')
os.makedirs(os.path.dirname('tests/test_plugins.py') or '.', exist_ok=True)
open('tests/test_plugins.py', 'w').write('from a23lib.plugins import names\n\n\ndef test_all():\n    assert names() == ["alpha", "beta"]\n')
