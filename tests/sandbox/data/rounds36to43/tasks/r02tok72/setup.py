import json, os
F = json.loads('{"a23lib/tokens.py": "\\"\\"\\"Session tokens.\\"\\"\\"\\nimport random\\n\\n_rng = random.Random()\\n\\n\\ndef new_token(nbytes=8):\\n    \\"\\"\\"A random hex token.\\"\\"\\"\\n    return \\"%0*x\\" % (nbytes * 2, _rng.getrandbits(nbytes * 8))\\n", "tests/test_tokens.py": "from a23lib.tokens import new_token\\n\\n\\ndef test_distinct():\\n    seen = {}\\n    for i in range(200):\\n        seen[new_token()] = i\\n    assert len(seen) == 200\\n\\n\\ndef test_length():\\n    assert len(str(new_token(4))) == 8\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
