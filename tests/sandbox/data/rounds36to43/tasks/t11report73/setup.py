import os
os.makedirs(os.path.dirname('a23lib/report.py') or '.', exist_ok=True)
open('a23lib/report.py', 'w').write('"""Plain-text reports."""\nimport sys\n\n\ndef print_totals(totals, stream=None):\n    """Print `name: total` lines, largest total first."""\n    stream = stream or sys.stdout\n    for name, total in sorted(totals.items(), key=lambda kv: -kv[1]):\n        stream.write(f"{name}: {total}\\n")\n')
os.makedirs(os.path.dirname('tests/test_report.py') or '.', exist_ok=True)
open('tests/test_report.py', 'w').write('from a23lib.report import print_totals\n\n\ndef test_totals(capfd):\n    print_totals({"apples": 3, "pears": 10, "figs": 1})\n    out, err = capfd.readouterr()\n    assert out == "pears: 10\\napples: 3\\nfigs: 1\\n"\n\n\ndef test_empty(capfd):\n    print_totals({})\n    assert capfd.readouterr().out == ""\n')
