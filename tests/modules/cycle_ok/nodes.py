import graph


def children(n):
    return graph.size(n)
