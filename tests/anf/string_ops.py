# Strings: concatenation, repetition, comparison and len.
def greet(name):
    s = "hello, " + name
    line = "-" * len(s)
    same = s == "hello, world"
    return s, line, same
