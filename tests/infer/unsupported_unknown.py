# A construct fathom does not support is a warning, and the value it gives
# is unknown, not an error: the signatures say `unknown`, the exit status
# is 0 (no error was reported).
def produce(x: int):
    return (yield x)


def huge():
    return 99999999999999999999999 + 1


def parse(text: str):
    return {"text": text}
