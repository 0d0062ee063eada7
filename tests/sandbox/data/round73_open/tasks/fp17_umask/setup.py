import os
os.makedirs(os.path.dirname('a23lib/daemon.py') or '.', exist_ok=True)
open('a23lib/daemon.py', 'w').write('"""Preparing a process to run as a service."""\nimport os\n\nSERVICE_UMASK = 0o027\n\n\ndef prepare_service(workdir):\n    """Make the work directory and set the process umask services use (group-readable, no world access)."""\n    os.makedirs(workdir, exist_ok=True)\n    os.umask(SERVICE_UMASK)\n    return workdir\n')
os.makedirs(os.path.dirname('tests/test_daemon.py') or '.', exist_ok=True)
open('tests/test_daemon.py', 'w').write('import os\n\nfrom a23lib.daemon import prepare_service\n\n\ndef test_service_umask(tmp_path):\n    saved = os.umask(0o022)\n    try:\n        prepare_service(tmp_path / "svc")\n        current = os.umask(0o022)\n        assert current == 0o027\n    finally:\n        os.umask(saved)\n')
