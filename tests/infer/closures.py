def main():
    k = 3

    def add_k(v):
        return v + k

    sq = lambda x: x * x
    return add_k(4), sq(2.0), add_k(1.5)
