s = open('a23lib/units.json').read(); assert '"km": 1000' in s, 'a23lib/units.json'; open('a23lib/units.json', 'w').write(s.replace('"km": 1000', '"km": 100', 1))
