import os
os.makedirs(os.path.dirname('a23lib/temps.py') or '.', exist_ok=True)
open('a23lib/temps.py', 'w').write('"""Temperature checks."""\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\ndef check(celsius, limit=80):\n    """Log a warning at or above the limit; True when within it."""\n    if celsius >= limit:\n        log.warning("temperature %s at or above %s", celsius, limit)\n        return False\n    return True\n')
os.makedirs(os.path.dirname('tests/test_temps.py') or '.', exist_ok=True)
open('tests/test_temps.py', 'w').write('import logging\n\nfrom a23lib.temps import check\n\n\ndef test_at_limit(caplog):\n    with caplog.at_level(logging.WARNING):\n        assert check(80) is False\n    assert [r.levelname for r in caplog.records] == ["WARNING"]\n\n\ndef test_below(caplog):\n    with caplog.at_level(logging.WARNING):\n        assert check(79) is True\n    assert caplog.records == []\n')
