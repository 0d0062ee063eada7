import os
os.makedirs(os.path.dirname('a23lib/pidfile.py') or '.', exist_ok=True)
open('a23lib/pidfile.py', 'w').write('"""Pid files."""\nimport os\n\n\ndef is_running(path):\n    """True when the pid file exists and names a live process."""\n    if not os.path.exists(path):\n        return False\n    with open(path) as f:\n        int(f.read().strip())\n    return True\n')
os.makedirs(os.path.dirname('tests/test_pidfile.py') or '.', exist_ok=True)
open('tests/test_pidfile.py', 'w').write('import os\n\nfrom a23lib.pidfile import is_running\n\n\ndef test_self(tmp_path):\n    p = tmp_path / "app.pid"\n    p.write_text(str(os.getpid()))\n    assert is_running(p) is True\n\n\ndef test_dead(tmp_path):\n    p = tmp_path / "app.pid"\n    p.write_text("4194000")\n    assert is_running(p) is False\n\n\ndef test_missing(tmp_path):\n    assert is_running(tmp_path / "none.pid") is False\n')
