from fathom import Module, zeros, matmul


class Linear(Module):
    def __init__(self, n_in, n_out):
        super().__init__()
        self.w = zeros((n_in, n_out))

    def forward(self, x):
        return matmul(x, self.w)
