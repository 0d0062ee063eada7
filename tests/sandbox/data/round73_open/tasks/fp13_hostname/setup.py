import os
os.makedirs(os.path.dirname('a23lib/logfmt.py') or '.', exist_ok=True)
open('a23lib/logfmt.py', 'w').write('"""Syslog-style line prefixes."""\nimport socket\n\n\ndef prefix(app, pid):\n    """\'host app[pid]:\' with the short host name (no domain)."""\n    return f"{socket.gethostname().split(\'.\')[0]} {app}[{pid}]:"\n')
os.makedirs(os.path.dirname('tests/test_logfmt.py') or '.', exist_ok=True)
open('tests/test_logfmt.py', 'w').write('import socket\n\nfrom a23lib.logfmt import prefix\n\n\ndef test_prefix():\n    host = socket.gethostname().split(".")[0]\n    assert prefix("web", 42) == f"{host} web[42]:"\n    assert "." not in prefix("web", 42).split()[0]\n')
