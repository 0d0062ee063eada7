s = open('a23lib/daemon.py').read(); assert '    os.umask(SERVICE_UMASK)\n' in s, 'a23lib/daemon.py'; open('a23lib/daemon.py', 'w').write(s.replace('    os.umask(SERVICE_UMASK)\n', '', 1))
