# assert with and without a message.
def checked_div(a, b):
    assert b != 0
    assert a >= 0, "a must be non-negative"
    return a / b
