import os
os.makedirs(os.path.dirname('a23lib/feed.py') or '.', exist_ok=True)
open('a23lib/feed.py', 'w').write('"""Read the titles of an RSS feed."""\nimport xml.etree.ElementTree as ET\n\n\ndef titles(text):\n    """The item titles of an RSS 2.0 document, in order."""\n    root = ET.fromstring(text)\n    return [item.findtext("title", "").strip() for item in root.iter("item")]\n')
os.makedirs(os.path.dirname('tests/test_feed.py') or '.', exist_ok=True)
open('tests/test_feed.py', 'w').write('from a23lib.feed import titles\n\nFEED = """<?xml version="1.0"?>\n<rss version="2.0"><channel><title>Blog</title>\n<item><title>First &amp; best</title></item>\n<item><title lang="en">Second</title></item>\n<item><title><![CDATA[Third <b>bold</b>]]></title></item>\n</channel></rss>"""\n\n\ndef test_titles():\n    assert titles(FEED) == ["First & best", "Second", "Third <b>bold</b>"]\n\n\ndef test_empty():\n    assert titles("<rss><channel/></rss>") == []\n')
