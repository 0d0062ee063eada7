import os
os.makedirs(os.path.dirname('a23lib/lock.py') or '.', exist_ok=True)
open('a23lib/lock.py', 'w').write('"""A lock file holding the owner\'s pid."""\nimport os\n\n\ndef acquire(path):\n    """Create the lock file; False if someone holds it."""\n    if os.path.exists(path):\n        return False\n    with open(path, "w") as f:\n        f.write(str(os.getpid()))\n    return True\n')
os.makedirs(os.path.dirname('tests/test_lock.py') or '.', exist_ok=True)
open('tests/test_lock.py', 'w').write('import os\n\nfrom a23lib.lock import acquire\n\n\ndef test_second_acquire_fails(tmp_path):\n    p = tmp_path / "x.lock"\n    assert acquire(p) is True\n    assert acquire(p) is False\n\n\ndef test_holds_pid(tmp_path):\n    p = tmp_path / "x.lock"\n    acquire(p)\n    assert p.read_text() == str(os.getpid())\n')
