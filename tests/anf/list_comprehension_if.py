# A list comprehension with an if filter.
def evens_squared(n):
    return [x * x for x in range(n) if x % 2 == 0]


def main():
    return evens_squared(10)
