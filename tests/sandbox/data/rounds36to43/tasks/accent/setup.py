import os
os.makedirs(os.path.dirname('a23lib/fold.py') or '.', exist_ok=True)
open('a23lib/fold.py', 'w', encoding='utf-8').write('"""ASCII folding."""\nimport unicodedata\n\n\ndef fold(text):\n    """\'Crème brûlée\' -> \'Creme brulee\'."""\n    decomposed = unicodedata.normalize("NFKD", text)\n    return "".join(c for c in decomposed if not unicodedata.combining(c))\n')
os.makedirs(os.path.dirname('tests/test_fold.py') or '.', exist_ok=True)
open('tests/test_fold.py', 'w', encoding='latin-1').write('# -*- coding: latin-1 -*-\nimport pytest\n\nfrom a23lib.fold import fold\n\nCASES = [\n    ("café", "cafe"),\n    ("Crème brûlée", "Creme brulee"),\n    ("naïve façade", "naive facade"),\n    ("plain", "plain"),\n]\n\n\n@pytest.mark.parametrize("text,want", CASES)\ndef test_fold(text, want):\n    assert fold(text) == want\n')
