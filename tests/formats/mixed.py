# An error, a warning and a line with non-ASCII text before the error: the
# json columns count bytes, the sarif columns count code points.
OFFSET = 1


def label():
    s = "café ☕"; return s + OFSET


while OFFSET:
    pass
