import json
import os
FILES = {
    "a23lib/slug.py": 'import re\n\n\ndef slugify(text):\n    """Lower-case words joined by dashes."""\n'
                      '    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))\n',
    "tests/cases.json": json.dumps([{"in": "Hello World", "want": "hello-world"}, {"in": "A  b", "want": "a-b"},
                                    {"in": "x", "want": "x"}], indent=2) + "\n",
    "tests/test_slug.py": 'import json\nfrom pathlib import Path\n\nimport pytest\n\nfrom a23lib.slug import slugify\n\n'
                          'CASES = json.loads((Path(__file__).parent / "cases.json").read_text())\n\n\n'
                          '@pytest.mark.parametrize("case", CASES, ids=lambda c: c["in"])\ndef test_slug(case):\n'
                          '    assert slugify(case["in"]) == case["want"]\n',
}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(s)
