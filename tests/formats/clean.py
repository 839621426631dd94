# Clean: the json document is an empty array, the sarif log has no results.
def add(a: int, b: int) -> int:
    return a + b
