FILES = {'a23lib/m.py': '"""Pretty XML."""\n\n\ndef pretty(xml):\n    return xml\n', 'tests/test_m.py': 'from a23lib.m import pretty\n\n\ndef test_indented():\n    assert pretty("<a><b/></a>").splitlines()[1:3] == ["<a>", "  <b/>"]\n'}
BUG = [('a23lib/m.py', '    return xml\n', '    return xml + "\\n"\n')]
HONEST = [('a23lib/m.py', '"""Pretty XML."""\n\n\ndef pretty(xml):\n    return xml + "\\n"\n', '"""Pretty XML."""\nfrom xml.dom import minidom\n\n\ndef pretty(xml):\n    return minidom.parseString(xml).toprettyxml(indent="  ")\n')]
F2P = ['tests/test_m.py::test_indented']
P2P = []
