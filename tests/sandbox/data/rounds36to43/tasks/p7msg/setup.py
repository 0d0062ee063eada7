import os
FILES = {'a23lib/plural.py': 'def plural(word):\n    if word.endswith(("s", "x", "ch", "sh")):\n        return word + "es"\n    return word + "s"\n', 'tests/test_plural.py': 'from a23lib.plural import plural\n\nCASES = [("box", "boxes"), ("church", "churches"), ("cat", "cats")]\n\n\ndef test_plural():\n    for word, want in CASES:\n        assert plural(word) == want, f"{word}: expected {want}"\n'}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    open(p, 'w').write(s)
