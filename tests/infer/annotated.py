# Entry points without --entry: functions whose parameters are all
# annotated (main has none), and the others with unknown parameters.
def area(w: int, h: float) -> float:
    return w * h


def twice(v):
    return v + v


def main():
    return area(3, 2.5), twice(4)
