import os
os.makedirs(os.path.dirname('a23lib/dirs.py') or '.', exist_ok=True)
open('a23lib/dirs.py', 'w').write('"""Running code in another directory."""\nimport contextlib\nimport os\n\n\n@contextlib.contextmanager\ndef pushd(path):\n    old = os.getcwd()\n    os.chdir(path)\n    try:\n        yield path\n    finally:\n        os.chdir(old)\n')
os.makedirs(os.path.dirname('tests/test_dirs.py') or '.', exist_ok=True)
open('tests/test_dirs.py', 'w').write('import os\n\nimport pytest\n\nfrom a23lib.dirs import pushd\n\n\ndef test_restores_after_error(tmp_path):\n    here = os.getcwd()\n    with pytest.raises(RuntimeError):\n        with pushd(tmp_path):\n            raise RuntimeError("boom")\n    assert os.getcwd() == here\n')
