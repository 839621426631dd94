# args: --entry echo --const-args ('\xe9\x41',)
# \xNN in --const-args is the code point U+00NN, as in Python (found by
# fuzz/fuzz_notation.c): the string is 'éA', two code points.
def echo(s):
    return s, len(s)
