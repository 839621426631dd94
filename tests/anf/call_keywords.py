# Calls with keyword arguments, mixed with positional ones.
def box(width, height=1, depth=1):
    return width * height * depth


def main():
    a = box(2, depth=3)
    b = box(width=1, height=2, depth=3)
    c = box(4, 5, depth=6)
    return a, b, c
