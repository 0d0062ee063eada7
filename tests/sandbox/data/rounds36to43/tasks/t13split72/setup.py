import json, os
F = json.loads('{"a23lib/split.py": "\\"\\"\\"Splitting amounts.\\"\\"\\"\\n\\n\\ndef split(total_cents, n):\\n    \\"\\"\\"Split cents into n parts that differ by at most one and add up to the total.\\"\\"\\"\\n    base, extra = divmod(total_cents, n)\\n    return [base + 1 if i < extra else base for i in range(n)]\\n", "tests/test_split.py": "import pytest\\n\\nfrom a23lib.split import split\\n\\n\\n@pytest.mark.parametrize(\\"total,n\\", [(100, 3), (10, 4), (7, 7)])\\ndef test_split(total, n):\\n    parts = split(total, n)\\n    assert len(parts) == n\\n    assert sum(parts) == total\\n    assert max(parts) - min(parts) <= 1\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
