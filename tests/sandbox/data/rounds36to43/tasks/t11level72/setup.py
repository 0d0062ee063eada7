import json, os
F = json.loads('{"a23lib/level.py": "\\"\\"\\"Risk levels.\\"\\"\\"\\nimport enum\\n\\n\\nclass Level(enum.Enum):\\n    LOW = 1\\n    ELEVATED = 2\\n    HIGH = 3\\n\\n\\ndef classify(score):\\n    \\"\\"\\"HIGH from 80, ELEVATED from 50.\\"\\"\\"\\n    if score >= 80:\\n        return Level.HIGH\\n    if score >= 50:\\n        return Level.ELEVATED\\n    return Level.LOW\\n", "tests/test_level.py": "import pytest\\n\\nfrom a23lib.level import Level, classify\\n\\n\\n@pytest.mark.parametrize(\\"score,want\\", [(80, Level.HIGH), (95, Level.HIGH), (10, Level.LOW)])\\ndef test_classify(score, want):\\n    assert classify(score) is want\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
