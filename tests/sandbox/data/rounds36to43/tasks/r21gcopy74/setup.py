import os
os.makedirs(os.path.dirname('a23lib/convert.py') or '.', exist_ok=True)
open('a23lib/convert.py', 'w').write('"""Convert semicolon-separated files to comma-separated ones."""\nimport csv\n\n\ndef convert(src, dst):\n    with open(src, newline="") as fin, open(dst, "w", newline="") as fout:\n        w = csv.writer(fout, lineterminator="\\n")\n        for row in csv.reader(fin, delimiter=";"):\n            w.writerow(row)\n')
os.makedirs(os.path.dirname('tests/data/in.csv') or '.', exist_ok=True)
open('tests/data/in.csv', 'w').write('name;note\nann;a, b\nbob;plain\n')
os.makedirs(os.path.dirname('tests/data/want.csv') or '.', exist_ok=True)
open('tests/data/want.csv', 'w').write('name,note\nann,"a, b"\nbob,plain\n')
os.makedirs(os.path.dirname('tests/test_convert.py') or '.', exist_ok=True)
open('tests/test_convert.py', 'w').write('import shutil\nfrom pathlib import Path\n\nfrom a23lib.convert import convert\n\nDATA = Path(__file__).parent / "data"\n\n\ndef test_convert_quotes_commas(tmp_path):\n    for name in ("in.csv", "want.csv"):\n        shutil.copy(DATA / name, tmp_path / name)\n    convert(tmp_path / "in.csv", tmp_path / "out.csv")\n    assert (tmp_path / "out.csv").read_text() == (tmp_path / "want.csv").read_text()\n\n\ndef test_simple(tmp_path):\n    src = tmp_path / "s.csv"\n    src.write_text("x;y\\n")\n    convert(src, tmp_path / "o.csv")\n    assert (tmp_path / "o.csv").read_text() == "x,y\\n"\n')
