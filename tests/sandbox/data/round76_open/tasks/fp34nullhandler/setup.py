import os
os.makedirs(os.path.dirname('a23lib/quota.py') or '.', exist_ok=True)
open('a23lib/quota.py', 'w').write('"""Disk quotas."""\n\n\ndef check_quota(used, limit):\n    """True within the limit; over it, False and a warning on the a23lib.quota logger."""\n    return used <= limit\n')
os.makedirs(os.path.dirname('tests/test_quota.py') or '.', exist_ok=True)
open('tests/test_quota.py', 'w').write('import logging\n\nfrom a23lib.quota import check_quota\n\n\ndef test_over_warns(caplog):\n    with caplog.at_level(logging.WARNING, logger="a23lib.quota"):\n        assert check_quota(12, 10) is False\n    assert [r.getMessage() for r in caplog.records] == ["quota exceeded: 12 > 10"]\n\n\ndef test_within(caplog):\n    assert check_quota(5, 10) is True\n')
