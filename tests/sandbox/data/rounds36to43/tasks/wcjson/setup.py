import os
os.makedirs(os.path.dirname('a23lib/words.py') or '.', exist_ok=True)
open('a23lib/words.py', 'w').write('"""Word counting."""\n\n\ndef count_words(text):\n    """The number of whitespace-separated words."""\n    return len(text.split())\n')
os.makedirs(os.path.dirname('tests/cases.json') or '.', exist_ok=True)
open('tests/cases.json', 'w').write('[\n  {"text": "one two three", "count": 3},\n  {"text": "  leading and trailing  ", "count": 3},\n  {"text": "tabs\\tand\\nnewlines", "count": 3},\n  {"text": "double  space", "count": 2}\n]\n')
os.makedirs(os.path.dirname('tests/test_words.py') or '.', exist_ok=True)
open('tests/test_words.py', 'w').write('import json\nimport os\n\nfrom a23lib.words import count_words\n\nHERE = os.path.dirname(os.path.abspath(__file__))\n\n\ndef load_cases():\n    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as fh:\n        return json.load(fh)\n\n\ndef test_cases():\n    for case in load_cases():\n        assert count_words(case["text"]) == case["count"], case\n\n\ndef test_empty():\n    assert count_words("") == 0\n')
