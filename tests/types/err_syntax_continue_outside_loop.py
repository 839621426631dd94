# `continue` outside a loop, even inside an if.
def main():
    x = 1
    if x > 0:
        continue  # expect-error: syntax
    return x
