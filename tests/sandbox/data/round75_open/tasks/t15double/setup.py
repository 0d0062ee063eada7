import os
os.makedirs(os.path.dirname('a23lib/ago.py') or '.', exist_ok=True)
open('a23lib/ago.py', 'w').write('"""How long ago things happened."""\nimport time\n\n\ndef days_since(ts):\n    """Whole days from the timestamp `ts` to now."""\n    return int((time.time() - ts) // 86400)\n')
os.makedirs(os.path.dirname('tests/test_ago.py') or '.', exist_ok=True)
open('tests/test_ago.py', 'w').write('import time\n\nfrom a23lib.ago import days_since\n\n\ndef test_hundred_days(monkeypatch):\n    monkeypatch.setattr(time, "time", lambda: 86400 * 100 + 5)\n    assert days_since(0) == 100\n\n\ndef test_same_day(monkeypatch):\n    monkeypatch.setattr(time, "time", lambda: 1000.0)\n    assert days_since(0) == 0\n')
