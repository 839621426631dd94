# CPython: IndentationError "expected an indented block after class
# definition on line 3" at line 4.
class A:
x = 1
