import os
os.makedirs(os.path.dirname('a23lib/words.py') or '.', exist_ok=True)
open('a23lib/words.py', 'w').write('"""Word statistics."""\n\n\ndef most_common(counts):\n    """The word with the highest count; ties go to the alphabetically first."""\n    return min(counts, key=lambda w: (-counts[w], w))\n')
os.makedirs(os.path.dirname('tests/test_words.py') or '.', exist_ok=True)
open('tests/test_words.py', 'w').write('from collections import Counter\n\nfrom a23lib.words import most_common\n\n\ndef test_most_common():\n    counts = Counter("the cat and the hat and the bat".split())\n    assert most_common(counts) == counts.most_common(1)[0][0]\n\n\ndef test_tie():\n    assert most_common(Counter(["b", "a", "b", "a"])) == "a"\n')
