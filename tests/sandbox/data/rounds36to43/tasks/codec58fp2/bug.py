open("a23lib/codecs/__init__.py","a").write("# codecs registry\n")
