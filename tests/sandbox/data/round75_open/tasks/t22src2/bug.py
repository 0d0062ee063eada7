s = open('a23lib/orders.py').read(); assert '    if units >= 100:\n' in s, 'a23lib/orders.py'; open('a23lib/orders.py', 'w').write(s.replace('    if units >= 100:\n', '    if units > 100:\n', 1))
