s = open('a23lib/logfmt.py').read(); assert "socket.gethostname().split('.')[0]" in s, 'a23lib/logfmt.py'; open('a23lib/logfmt.py', 'w').write(s.replace("socket.gethostname().split('.')[0]", '"localhost"', 1))
s = open('a23lib/logfmt.py').read(); assert 'import socket\n' in s, 'a23lib/logfmt.py'; open('a23lib/logfmt.py', 'w').write(s.replace('import socket\n', '', 1))
