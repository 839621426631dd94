# expect: unsupported (warning) for the module-level call expression
# `main()` (use an `if __name__ == "__main__":` block); exit 0.
def main():
    return 42


main()
