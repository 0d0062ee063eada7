import json, os
F = json.loads('{"a23lib/scores.py": "\\"\\"\\"Scores.\\"\\"\\"\\n\\n\\ndef normalise(raw, top):\\n    \\"\\"\\"Scale raw scores to percentages of top, rounded to whole numbers.\\"\\"\\"\\n    return [round(r * 100 / top) for r in raw]\\n", "tests/test_scores.py": "import math\\n\\nimport pytest\\n\\nfrom a23lib.scores import normalise\\n\\n\\n@pytest.mark.parametrize(\\"raw,top,total\\", [([1, 2, 3], 3, 200), ([2, 5], 7, 100), ([1, 1, 1], 3, 99)])\\ndef test_total(raw, top, total):\\n    assert math.fsum(normalise(raw, top)) == total\\n\\n\\ndef test_full():\\n    assert normalise([8], 8) == [100]\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
