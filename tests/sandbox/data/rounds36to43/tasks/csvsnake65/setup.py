import os
os.makedirs(os.path.dirname('a23lib/names.py') or '.', exist_ok=True)
open('a23lib/names.py', 'w').write('"""Identifier case conversion."""\nimport re\n\n\ndef snake(name):\n    """\'HTTPServer\' -> \'http_server\', \'getURLFor\' -> \'get_url_for\'."""\n    s = re.sub(r"([A-Z]+)([A-Z][a-z])", r"\\1_\\2", name)\n    s = re.sub(r"([a-z\\d])([A-Z])", r"\\1_\\2", s)\n    return s.lower()\n')
os.makedirs(os.path.dirname('tests/data/snake.csv') or '.', exist_ok=True)
open('tests/data/snake.csv', 'w').write('camel,snake\nhelloWorld,hello_world\nsimple,simple\nHTTPServer,http_server\ngetURLFor,get_url_for\nXMLParser,xml_parser\n')
os.makedirs(os.path.dirname('tests/test_names.py') or '.', exist_ok=True)
open('tests/test_names.py', 'w').write('import csv\nimport pathlib\n\nimport pytest\n\nfrom a23lib.names import snake\n\nHERE = pathlib.Path(__file__).parent\nwith open(HERE / "data" / "snake.csv", newline="") as fh:\n    ROWS = [(r["camel"], r["snake"]) for r in csv.DictReader(fh)]\n\n\n@pytest.mark.parametrize("camel,want", ROWS)\ndef test_snake(camel, want):\n    assert snake(camel) == want\n')
