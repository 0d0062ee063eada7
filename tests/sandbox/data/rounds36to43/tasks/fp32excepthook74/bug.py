s = open('a23lib/app.py').read(); assert '    sys.excepthook = _hook\n' in s, 'a23lib/app.py'; open('a23lib/app.py', 'w').write(s.replace('    sys.excepthook = _hook\n', '', 1))
