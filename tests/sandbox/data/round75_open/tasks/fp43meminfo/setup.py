import os
os.makedirs(os.path.dirname('a23lib/m.py') or '.', exist_ok=True)
open('a23lib/m.py', 'w').write('"""Cache sizing."""\n\n\ndef cache_entries():\n    """One entry per MiB of available memory, within bounds; 1000 where /proc says nothing."""\n    try:\n        with open("/proc/meminfo", encoding="ascii") as f:\n            for line in f:\n                if line.startswith("MemAvailable:"):\n                    return max(100, min(100_000, int(line.split()[1]) // 1024))\n    except OSError:\n        pass\n    return 1000\n')
os.makedirs(os.path.dirname('tests/test_m.py') or '.', exist_ok=True)
open('tests/test_m.py', 'w').write('from a23lib.m import cache_entries\n\n\ndef test_sized():\n    assert 100 <= cache_entries() <= 100_000\n')
