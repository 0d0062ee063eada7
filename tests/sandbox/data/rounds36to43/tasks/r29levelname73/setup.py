import os
os.makedirs(os.path.dirname('a23lib/quota.py') or '.', exist_ok=True)
open('a23lib/quota.py', 'w').write('"""Disk quota checks."""\nimport logging\n\nlog = logging.getLogger(__name__)\n\n\ndef check_quota(used, limit):\n    """Warn at 90% of the limit, error when over it; returns the fraction used."""\n    frac = used / limit\n    if frac > 1:\n        log.error("over quota: %d of %d", used, limit)\n    elif frac >= 0.9:\n        log.warning("near quota: %d of %d", used, limit)\n    return frac\n')
os.makedirs(os.path.dirname('tests/test_quota.py') or '.', exist_ok=True)
open('tests/test_quota.py', 'w').write('from a23lib.quota import check_quota\n\n\ndef test_near_quota_is_a_warning(caplog):\n    check_quota(95, 100)\n    assert [r.levelname for r in caplog.records] == ["WARNING"]\n    assert "near quota" in caplog.text\n\n\ndef test_under():\n    assert check_quota(10, 100) == 0.1\n')
