import os
os.makedirs(os.path.dirname('a23lib/cfgerr.py') or '.', exist_ok=True)
open('a23lib/cfgerr.py', 'w').write('"""Configuration errors that quote the offending line."""\n\n\ndef error_at(path, lineno, message):\n    """\'path:lineno: message: <the line>\' (lineno counts from 1)."""\n    with open(path, encoding="utf-8") as f:\n        line = f.read().splitlines()[lineno]\n    return f"{path}:{lineno}: {message}: {line.strip()}"\n')
os.makedirs(os.path.dirname('tests/test_cfgerr.py') or '.', exist_ok=True)
open('tests/test_cfgerr.py', 'w').write('from a23lib.cfgerr import error_at\n\n\ndef test_quotes_line(tmp_path):\n    p = tmp_path / "app.ini"\n    p.write_text("[main]\\nport = x\\nhost = h\\n", encoding="utf-8")\n    assert error_at(str(p), 2, "bad port").endswith(":2: bad port: port = x")\n')
