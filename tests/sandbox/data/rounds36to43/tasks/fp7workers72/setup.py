import json, os
F = json.loads('{"a23lib/workers.py": "\\"\\"\\"Worker pools.\\"\\"\\"\\nimport os\\n\\n\\ndef default_workers():\\n    \\"\\"\\"The CPUs this process may run on (its affinity, not the machine\'s count), at least 1.\\"\\"\\"\\n    try:\\n        n = len(os.sched_getaffinity(0))\\n    except AttributeError:  # not on Linux\\n        n = os.cpu_count() or 1\\n    return max(1, n)\\n", "tests/test_workers.py": "import os\\n\\nfrom a23lib.workers import default_workers\\n\\n\\ndef test_bounds():\\n    assert 1 <= default_workers() <= (os.cpu_count() or 1)\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
