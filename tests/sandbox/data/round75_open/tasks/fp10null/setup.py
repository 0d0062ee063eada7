import os
os.makedirs(os.path.dirname('a23lib/lenient.py') or '.', exist_ok=True)
open('a23lib/lenient.py', 'w').write('"""Parsing numbers leniently."""\nimport logging\n\nlog = logging.getLogger(__name__)\nlog.addHandler(logging.NullHandler())\n\n\ndef parse_all(texts):\n    out = []\n    for t in texts:\n        try:\n            out.append(int(t))\n        except ValueError:\n            log.warning("skipped %r", t)\n    return out\n')
os.makedirs(os.path.dirname('tests/test_lenient.py') or '.', exist_ok=True)
open('tests/test_lenient.py', 'w').write('from a23lib.lenient import parse_all\n\n\ndef test_bad_skipped_and_logged(caplog):\n    assert parse_all(["1", "x", "3"]) == [1, 3]\n    assert "skipped \'x\'" in caplog.text\n')
