# expect: a module-level class is analysed (language.md 8): no diagnostic;
# its name and the function after it are both bound; exit 0.
class Config:
    size = 3


def size():
    return Config.size
