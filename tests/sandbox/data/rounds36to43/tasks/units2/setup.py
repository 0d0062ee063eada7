import os
os.makedirs(os.path.dirname('a23lib/sizes.py') or '.', exist_ok=True)
open('a23lib/sizes.py', 'w').write('"""Human-readable byte sizes."""\n\n_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"]\n\n\ndef human_size(n):\n    """1536 -> \'1.5 KiB\'; whole numbers lose their \'.0\'."""\n    size = float(n)\n    for unit in _UNITS:\n        if size < 1024 or unit == _UNITS[-1]:\n            break\n        size /= 1024\n    text = f"{size:.1f}".rstrip("0").rstrip(".")\n    return f"{text} {unit}"\n')
os.makedirs(os.path.dirname('tests/test_sizes.py') or '.', exist_ok=True)
open('tests/test_sizes.py', 'w').write('from a23lib.sizes import human_size\n\nCASES = [\n    (0, "0 B"),\n    (1023, "1023 B"),\n    (1024, "1 KiB"),\n    (1536, "1.5 KiB"),\n    (1048576, "1 MiB"),\n]\n\n\ndef test_table(subtests):\n    for n, want in CASES:\n        with subtests.test(n=n):\n            assert human_size(n) == want\n\n\ndef test_type():\n    assert isinstance(human_size(10), str)\n')
