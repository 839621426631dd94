# Statements other than constants, imports and defs at module level are
# unsupported (warnings) and ignored.
from typing import reveal_type

print('hello')  # expect-warning: unsupported

for i in range(3):  # expect-warning: unsupported
    pass


def main():
    reveal_type(2 * 3)  # expect-type: i64=6
    return 0


if __name__ == '__main__':
    main()
