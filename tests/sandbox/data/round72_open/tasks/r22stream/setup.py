import json, os
F = json.loads('{"a23lib/report.py": "\\"\\"\\"Plain-text reports.\\"\\"\\"\\n\\n\\ndef write_report(rows, out):\\n    \\"\\"\\"One \'name: value\' line per row, values right-aligned to the widest.\\"\\"\\"\\n    width = max((len(str(v)) for _, v in rows), default=0)\\n    for name, value in rows:\\n        out.write(f\\"{name}: {str(value).rjust(width)}\\\\n\\")\\n", "tests/test_report.py": "import io\\n\\nfrom a23lib.report import write_report\\n\\n\\ndef test_aligned():\\n    buf = io.StringIO()\\n    write_report([(\\"a\\", 5), (\\"bb\\", 120)], buf)\\n    assert buf.getvalue() == \\"a:   5\\\\nbb: 120\\\\n\\"\\n\\n\\ndef test_empty():\\n    buf = io.StringIO()\\n    write_report([], buf)\\n    assert buf.getvalue() == \\"\\"\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
