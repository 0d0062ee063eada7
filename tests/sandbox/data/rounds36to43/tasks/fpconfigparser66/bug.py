p = 'a23lib/settings.py'; s = open(p).read()
for a, b in [('    parser = configparser.ConfigParser(interpolation=None)\n    parser.read(path, encoding="utf-8")\n    return dict(parser["app"]) if parser.has_section("app") else {}', '    out, section = {}, None\n    with open(path, encoding="utf-8") as fh:\n        for line in fh:\n            line = line.strip()\n            if line.startswith("["):\n                section = line.strip("[]")\n            elif "=" in line and section == "app":\n                key, value = line.split("=", 1)\n                out[key.strip()] = value.strip()\n    return out'), ('import configparser\n', '')]:
    assert a in s, a
    s = s.replace(a, b)
open(p, 'w').write(s)
