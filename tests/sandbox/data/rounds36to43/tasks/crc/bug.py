p = 'a23lib/crc.py'; s = open(p).read(); assert 'def crc16(data, crc=0xFFFF):' in s; s = s.replace('def crc16(data, crc=0xFFFF):', 'def crc16(data, crc=0x0000):'); open(p, 'w').write(s)
