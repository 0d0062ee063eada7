import os
FILES = {
    "a23lib/report.py": 'def report(counts):\n    """One `name: count` line per name, in name order."""\n'
                        '    return "".join(f"{k}: {v}\\n" for k, v in sorted(counts.items()))\n',
    "tests/data/report.txt": "apple: 3\nbanana: 12\ncherry: 7\n",
    "tests/test_report.py": 'from pathlib import Path\n\nfrom a23lib.report import report\n\nHERE = Path(__file__).parent\n\n\n'
                            'def test_report():\n    got = report({"cherry": 7, "apple": 3, "banana": 12})\n'
                            '    assert got == (HERE / "data" / "report.txt").read_text()\n\n\n'
                            'def test_one():\n    assert report({"x": 1}) == "x: 1\\n"\n',
}
for p, s in FILES.items():
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(s)
