# expect-error at line 40: shape-mismatch
# Planted bug: the true dynamics multiply true_A @ (y**3), as in the math notation dy/dt = A y^3, but y is a row batch (1, 2), so the product must be (y**3) @ A.
"""Neural ODE on the spiral, translated from rtqichen/torchdiffeq
examples/ode_demo.py: the true dynamics Lambda (dy/dt = (y**3) @ A), the
trajectory true_y from true_y0 over the time grid t, get_batch's random
windows (batch_y0, batch_t, batch_y), ODEFunc's Linear-Tanh-Linear net on
y**3 with normal(0, 0.1) weights and zero biases, RunningAverageMeter, and
the training loop's L1 loss between odeint's prediction and batch_y.

Changed: nn.Module is fathom.Module, nn.Linear a small class and
nn.Sequential a fixed three-stage forward; odeint is torchdiffeq's
fixed-grid solver with method='rk4' written out (rk_common.rk4_step_func
and FixedGridODESolver.integrate on the grid t itself, so no
interpolation), the solution a stack of the steps instead of an empty
tensor filled in place; torch.linspace is arange scaled; the
np.random.choice window starts are random integers (with replacement)
made with random_uniform and cast; the optimizer step and plotting are
left out; the grid is 50 points over [0, 5] (the original's 1000 over
[0, 25] with dopri5; a fixed rk4 step needs the finer spacing to stay
stable), batch_time 5, batch_size 4, 3 iterations so the file runs fast;
the log line's str.format is an f-string.
"""
from fathom import *

DATA_SIZE = 50
T_END = 5.0
BATCH_TIME = 5
BATCH_SIZE = 4
NITERS = 3
TEST_FREQ = 2
_ONE_SIXTH = 1.0 / 6.0

true_y0 = reshape(concat([full((1,), 2.0), full((1,), 0.0)], axis=0), (1, 2))
t = arange(DATA_SIZE) * (T_END / (DATA_SIZE - 1))
true_A = reshape(concat([full((1,), -0.1), full((1,), 2.0), full((1,), -2.0), full((1,), -0.1)], axis=0), (2, 2))


class Lambda(Module):
    def forward(self, t, y):
        return matmul(true_A, y ** 3)


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class ODEFunc(Module):
    def __init__(self):
        super(ODEFunc, self).__init__()
        self.fc1 = Linear(2, 50)
        self.fc2 = Linear(50, 2)

    def forward(self, t, y):
        return self.fc2(tanh(self.fc1(y ** 3)))


def rk4_step_func(func, t0, dt, t1, y0):
    k1 = func(t0, y0)
    half_dt = dt * 0.5
    k2 = func(t0 + half_dt, y0 + half_dt * k1)
    k3 = func(t0 + half_dt, y0 + half_dt * k2)
    k4 = func(t1, y0 + dt * k3)
    return (k1 + 2 * (k2 + k3) + k4) * dt * _ONE_SIXTH


def odeint(func, y0, t):
    solution = [y0]
    for j in range(1, t.shape[0]):
        t0 = t[j - 1]
        t1 = t[j]
        dt = t1 - t0
        dy = rk4_step_func(func, t0, dt, t1, y0)
        y1 = y0 + dy
        solution.append(y1)
        y0 = y1
    return stack(solution, axis=0)


def get_batch(true_y):
    s = cast(random_uniform((BATCH_SIZE,)) * (DATA_SIZE - BATCH_TIME), i64)
    batch_y0 = true_y[s]  # (M, D)
    batch_t = t[:BATCH_TIME]  # (T)
    batch_y = stack([true_y[s + i] for i in range(BATCH_TIME)], axis=0)  # (T, M, D)
    return batch_y0, batch_t, batch_y


class RunningAverageMeter(object):
    """Computes and stores the average and current value"""

    def __init__(self, momentum=0.99):
        self.momentum = momentum
        self.val = None
        self.avg = 0.0

    def update(self, val):
        if self.val is None:
            avg = val
        else:
            avg = self.avg * self.momentum + val * (1 - self.momentum)
        return avg


def main():
    true_y = odeint(Lambda(), true_y0, t)
    func = ODEFunc()
    loss_meter = RunningAverageMeter(0.97)
    avg = 0.0
    for itr in range(1, NITERS + 1):
        batch_y0, batch_t, batch_y = get_batch(true_y)
        pred_y = odeint(func, batch_y0, batch_t)
        loss = mean(abs(pred_y - batch_y))
        avg = loss_meter.update(float(loss))
        if itr % TEST_FREQ == 0:
            pred_y = odeint(func, true_y0, t)
            loss = mean(abs(pred_y - true_y))
            print(f'Iter {itr:04d} | Total Loss {float(loss):.6f}')
    return true_y, avg


if __name__ == "__main__":
    true_y, avg = main()
    assert true_y.shape == (DATA_SIZE, 1, 2)
    print("neural ode ok", avg)
