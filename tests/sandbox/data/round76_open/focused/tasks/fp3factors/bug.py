s = open('a23lib/conv.py').read(); assert '"feet": 3048}' in s, 'a23lib/conv.py'; open('a23lib/conv.py', 'w').write(s.replace('"feet": 3048}', '"feet": 3084}', 1))
