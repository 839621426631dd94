# A function without return gives None; a bare return too.
def log(x):
    print(x)


def early(x):
    if x:
        return
    print("not x")


def main():
    return log(1), early(0)
