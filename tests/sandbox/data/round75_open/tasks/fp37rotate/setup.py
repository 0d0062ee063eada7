import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""An audit log."""\nimport logging\nimport logging.handlers\n\n\ndef audit_logger(path):\n    log = logging.getLogger("a23audit")\n    for h in list(log.handlers):\n        log.removeHandler(h)\n        h.close()\n    handler = logging.handlers.RotatingFileHandler(path, maxBytes=1 << 20, backupCount=3)\n    handler.setFormatter(logging.Formatter("%(message)s"))\n    log.addHandler(handler)\n    return log\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import audit_logger\n\n\ndef test_written(tmp_path):\n    log = audit_logger(tmp_path / "audit.log")\n    log.warning("login ann")\n    for h in log.handlers:\n        h.flush()\n    assert (tmp_path / "audit.log").read_text() == "login ann\\n"\n')
