import json, os
F = json.loads('{"a23lib/headers.py": "\\"\\"\\"HTTP-style headers.\\"\\"\\"\\n\\n\\ndef parse_headers(lines):\\n    \\"\\"\\"A dict of header name (lower-cased) -> value (stripped); later lines win.\\"\\"\\"\\n    out = {}\\n    for line in lines:\\n        name, _, value = line.partition(\\":\\")\\n        out[name.strip().lower()] = value.strip()\\n    return out\\n", "tests/test_headers.py": "import json\\n\\nfrom a23lib.headers import parse_headers\\n\\n\\ndef test_as_json():\\n    got = parse_headers([\\"Host: a\\", \\"X-Id:  7 \\", \\"host: b\\"])\\n    assert json.dumps(got, sort_keys=True) == \'{\\"host\\": \\"b\\", \\"x-id\\": \\"7\\"}\'\\n\\n\\ndef test_empty():\\n    assert parse_headers([]) == {}\\n"}')
for p, c in F.items():
    os.makedirs(os.path.dirname(p) or '.', exist_ok=True)
    open(p, 'w').write(c)
