from fathom import zeros
from app import model, SCALE
import app.model as m


def run():
    net = model.Linear(4, 8 * SCALE)
    y = net(zeros((2, 4)))  # expect-type: Tensor[f32, (2, 16)]
    z = m.Linear(16, 3)(y)  # expect-type: Tensor[f32, (2, 3)]
    return z


if __name__ == "__main__":
    print(run().shape)
