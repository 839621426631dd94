# None on one path and an int on the other: the optional `i64 | none`
# (language.md 5), no merge error; the join keeps both possibilities.
def maybe(n: int) -> int:
    result = None
    if n > 0:
        result = n
    reveal_type(result)  # expect-type: i64 | none
    return 0
