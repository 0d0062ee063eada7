s = open('a23lib/backup.py').read(); assert '    shutil.copystat(src, dst)\n' in s, 'a23lib/backup.py'; open('a23lib/backup.py', 'w').write(s.replace('    shutil.copystat(src, dst)\n', '', 1))
