s = open('a23lib/alerts.py').read(); assert '    if celsius >= 90:\n' in s, 'a23lib/alerts.py'; open('a23lib/alerts.py', 'w').write(s.replace('    if celsius >= 90:\n', '    if celsius > 90:\n', 1))
s = open('a23lib/alerts.py').read(); assert '    if celsius >= 60:\n' in s, 'a23lib/alerts.py'; open('a23lib/alerts.py', 'w').write(s.replace('    if celsius >= 60:\n', '    if celsius > 60:\n', 1))
