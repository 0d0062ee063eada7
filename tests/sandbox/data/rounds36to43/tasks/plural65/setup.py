import os
os.makedirs(os.path.dirname('a23lib/plural.py') or '.', exist_ok=True)
open('a23lib/plural.py', 'w').write('"""English plurals (regular nouns)."""\nimport re\n\n\ndef pluralize(word):\n    """\'city\' -> \'cities\', \'box\' -> \'boxes\', \'cat\' -> \'cats\'."""\n    if re.search(r"(s|x|z|ch|sh)$", word):\n        return word + "es"\n    if re.search(r"[^aeiou]y$", word):\n        return word[:-1] + "ies"\n    return word + "s"\n')
os.makedirs(os.path.dirname('tests/test_plural.py') or '.', exist_ok=True)
open('tests/test_plural.py', 'w').write('import pytest\n\nfrom a23lib.plural import pluralize\n\nROWS = [("cat", "cats"), ("box", "boxes"), ("city", "cities"), ("day", "days"), ("bus", "buses"),\n        ("party", "parties"), ("church", "churches")]\nregular_nouns = pytest.mark.parametrize("word,want", ROWS)\n\n\n@regular_nouns\ndef test_pluralize(word, want):\n    assert pluralize(word) == want\n')
