import os
os.makedirs(os.path.dirname('a23lib/pool.py') or '.', exist_ok=True)
open('a23lib/pool.py', 'w').write('"""Worker pool sizing."""\nimport os\n\n\ndef default_workers():\n    """One worker per CPU, leaving one for the main process, but always at least one."""\n    return max(1, (os.cpu_count() or 1) - 1)\n')
os.makedirs(os.path.dirname('tests/test_pool.py') or '.', exist_ok=True)
open('tests/test_pool.py', 'w').write('from a23lib.pool import default_workers\n\n\ndef test_at_least_one():\n    assert default_workers() >= 1\n')
