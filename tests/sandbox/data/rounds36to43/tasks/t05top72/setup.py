import json, os
F = json.loads('{"a23lib/rank.py": "\\"\\"\\"Ranking.\\"\\"\\"\\n\\n\\ndef top_n(scores, n):\\n    \\"\\"\\"The n highest scores, highest first.\\"\\"\\"\\n    return sorted(scores, reverse=True)[:n]\\n", "tests/test_rank.py": "from a23lib.rank import top_n\\n\\n\\ndef test_top_two():\\n    xs = [5, 1, 9, 3]\\n    got = top_n(xs, 2)\\n    assert got == sorted(xs, reverse=True)[:2]\\n\\n\\ndef test_all():\\n    xs = [2, 2, 1]\\n    assert top_n(xs, 5) == [2, 2, 1]\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
