# Strings and lists in the C back end (tests/specialize.py --c runs each
# entry compiled as C): repr's choice of quotes and escapes, slices with
# negative steps, membership, comparisons, str() of numbers,
# lists built by append, extend and comprehensions, iterated with
# enumerate and zip.


def quote(s: str, n: int) -> tuple[str, str, str, bool, bool]:
    t = s + "'" + '"' * (n % 3) + '\n\t\\'
    rev = s[::-1]
    mid = t[1:-1:2]
    return (t, rev, mid, s < t, 'a' in s)


def words(s: str, xs: list[int]) -> list[str]:
    out = [s, str(len(s)), str(2.5 * len(xs))]
    for i, x in enumerate(xs):
        out.append(str(i) + ":" + str(x))
    out.extend(('end', s[:1]))
    return out


def pairs(xs: list[float], s: str) -> tuple[list[tuple[float, str]], bool, list[float]]:
    ps = [(x, c) for x, c in zip(xs, s)]
    return (ps, 2.0 in xs, xs[1:] + [x * 2.0 for x in xs if x > 0.0])


def label(i: int, x: float, name: str) -> str:
    # f-strings: literal text, escaped braces, interpolated values
    return f"{name}#{i}: {{ok}} {i * 2} {x}" + f'<{name}>' "!"


def label_spec(i: int, x: float, name: str) -> str:
    # format specs and conversions: the executor runs them; the C emitter
    # refuses format_value (Python's format mini-language)
    return f"{x:.2f} {name!r}|{i:>{4}}|{x=}|{i = }"
