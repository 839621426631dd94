# args: --entry scale
# The example of docs/ir-json.md (the suite checks that the document shows
# exactly this output).
def scale(x: float, n: int) -> float:
    if n > 0:
        return x * n
    return x
