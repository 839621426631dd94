# CPython: IndentationError "expected an indented block after 'if'
# statement on line 6" at line 7 (the line after the header is not
# indented deeper); tree-sitter reads it as an empty body.
def f(x):
    y = x + 1
    if y > 2:
    return y
    return 0
