# expect-error at line 93: shape-mismatch
# Planted bug: LearnableEmbedding feeds the timesteps to its Linear(1, size) without the trailing unit axis (x.unsqueeze(-1) dropped); only the model built with time_emb='learnable' reaches it.
"""A DDPM on 2-d points, translated from tanelp/tiny-diffusion ddpm.py and
positional_embeddings.py: the SinusoidalEmbedding, LinearEmbedding,
LearnableEmbedding, IdentityEmbedding and ZeroEmbedding time/input
embeddings and the PositionalEmbedding choosing between them; Block (a
residual Linear + GELU) and the MLP denoiser (two input embeddings and the
time embedding concatenated, then the joint MLP); NoiseScheduler with the
linear and quadratic beta schedules, add_noise, reconstruct_x0, q_posterior,
get_variance and the reverse step; the training step (noise, random
timesteps, the MSE loss against the noise) and the sampling loop.

Changed: nn.Module is fathom.Module; nn.Linear and nn.GELU are small
classes and nn.Sequential is a Sequential over a tuple of layers;
`len(embedding)` (each embedding's __len__) is an `out_size` attribute;
the `**kwargs` forwarded to the embeddings are an explicit `scale`;
torch.linspace is `start + (end - start) * arange(n) / (n - 1)` and
torch.cumprod is exp(cumsum(log)); torch.randint is a cast of a uniform
sample; variance.clip(1e-20) is clip(variance, 1e-20, 1.0) (the DSL's clip
takes both bounds; a variance is below 1); the dino
dataset is a noisy circle, the optimizer and plotting are left out, and
the sizes are small (10 timesteps, hidden size 32) so the file runs fast.
"""
import math

from fathom import *


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * in_features ** -0.5
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class GELU(Module):
    def forward(self, x):
        return gelu(x)


class Sequential(Module):
    def __init__(self, *layers):
        super().__init__()
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x


class SinusoidalEmbedding(Module):
    def __init__(self, size, scale=1.0):
        super().__init__()
        self.size = size
        self.scale = scale
        self.out_size = size
        half_size = self.size // 2
        emb = math.log(10000.0) / (half_size - 1)
        emb = exp(-emb * arange(half_size))
        self.emb = emb

    def forward(self, x):
        x = x * self.scale
        emb = expand_dims(x, -1) * expand_dims(self.emb, 0)
        emb = concat((sin(emb), cos(emb)), axis=-1)
        return emb


class LinearEmbedding(Module):
    def __init__(self, size, scale=1.0):
        super().__init__()
        self.size = size
        self.scale = scale
        self.out_size = 1

    def forward(self, x):
        x = x / self.size * self.scale
        return expand_dims(x, -1)


class LearnableEmbedding(Module):
    def __init__(self, size):
        super().__init__()
        self.size = size
        self.out_size = size
        self.linear = Linear(1, size)

    def forward(self, x):
        return self.linear(cast(x, f32) / self.size)


class IdentityEmbedding(Module):
    def __init__(self):
        super().__init__()
        self.out_size = 1

    def forward(self, x):
        return expand_dims(x, -1)


class ZeroEmbedding(Module):
    def __init__(self):
        super().__init__()
        self.out_size = 1

    def forward(self, x):
        return expand_dims(x, -1) * 0


class PositionalEmbedding(Module):
    def __init__(self, size, type, scale=1.0):
        super().__init__()

        if type == "sinusoidal":
            self.layer = SinusoidalEmbedding(size, scale=scale)
        elif type == "linear":
            self.layer = LinearEmbedding(size, scale=scale)
        elif type == "learnable":
            self.layer = LearnableEmbedding(size)
        elif type == "zero":
            self.layer = ZeroEmbedding()
        elif type == "identity":
            self.layer = IdentityEmbedding()
        else:
            raise ValueError(f"Unknown positional embedding type: {type}")

    def forward(self, x):
        return self.layer(x)


class Block(Module):
    def __init__(self, size):
        super().__init__()

        self.ff = Linear(size, size)
        self.act = GELU()

    def forward(self, x):
        return x + self.act(self.ff(x))


class MLP(Module):
    def __init__(self, hidden_size=128, hidden_layers=3, emb_size=128,
                 time_emb="sinusoidal", input_emb="sinusoidal"):
        super().__init__()

        self.time_mlp = PositionalEmbedding(emb_size, time_emb)
        self.input_mlp1 = PositionalEmbedding(emb_size, input_emb, scale=25.0)
        self.input_mlp2 = PositionalEmbedding(emb_size, input_emb, scale=25.0)

        concat_size = self.time_mlp.layer.out_size + \
            self.input_mlp1.layer.out_size + self.input_mlp2.layer.out_size
        layers = [Linear(concat_size, hidden_size), GELU()]
        for _ in range(hidden_layers):
            layers.append(Block(hidden_size))
        layers.append(Linear(hidden_size, 2))
        self.joint_mlp = Sequential(*layers)

    def forward(self, x, t):
        x1_emb = self.input_mlp1(x[:, 0])
        x2_emb = self.input_mlp2(x[:, 1])
        t_emb = self.time_mlp(t)
        x = concat((x1_emb, x2_emb, t_emb), axis=-1)
        x = self.joint_mlp(x)
        return x


def linspace(start, end, n):
    return start + (end - start) * arange(n) / (n - 1)


class NoiseScheduler:
    def __init__(self,
                 num_timesteps=1000,
                 beta_start=0.0001,
                 beta_end=0.02,
                 beta_schedule="linear"):

        self.num_timesteps = num_timesteps
        if beta_schedule == "linear":
            self.betas = linspace(beta_start, beta_end, num_timesteps)
        elif beta_schedule == "quadratic":
            self.betas = linspace(beta_start ** 0.5, beta_end ** 0.5, num_timesteps) ** 2
        else:
            raise ValueError(f"Unknown beta schedule: {beta_schedule}")

        self.alphas = 1.0 - self.betas
        self.alphas_cumprod = exp(cumsum(log(self.alphas), axis=0))
        self.alphas_cumprod_prev = pad(self.alphas_cumprod[:-1], ((1, 0),), value=1.)

        # required for self.add_noise
        self.sqrt_alphas_cumprod = self.alphas_cumprod ** 0.5
        self.sqrt_one_minus_alphas_cumprod = (1 - self.alphas_cumprod) ** 0.5

        # required for reconstruct_x0
        self.sqrt_inv_alphas_cumprod = sqrt(1 / self.alphas_cumprod)
        self.sqrt_inv_alphas_cumprod_minus_one = sqrt(1 / self.alphas_cumprod - 1)

        # required for q_posterior
        self.posterior_mean_coef1 = self.betas * sqrt(self.alphas_cumprod_prev) / (1. - self.alphas_cumprod)
        self.posterior_mean_coef2 = (1. - self.alphas_cumprod_prev) * sqrt(self.alphas) / (1. - self.alphas_cumprod)

    def reconstruct_x0(self, x_t, t, noise):
        s1 = self.sqrt_inv_alphas_cumprod[t]
        s2 = self.sqrt_inv_alphas_cumprod_minus_one[t]
        s1 = reshape(s1, (-1, 1))
        s2 = reshape(s2, (-1, 1))
        return s1 * x_t - s2 * noise

    def q_posterior(self, x_0, x_t, t):
        s1 = self.posterior_mean_coef1[t]
        s2 = self.posterior_mean_coef2[t]
        s1 = reshape(s1, (-1, 1))
        s2 = reshape(s2, (-1, 1))
        mu = s1 * x_0 + s2 * x_t
        return mu

    def get_variance(self, t):
        if t == 0:
            return 0

        variance = self.betas[t] * (1. - self.alphas_cumprod_prev[t]) / (1. - self.alphas_cumprod[t])
        variance = clip(variance, 1e-20, 1.0)
        return variance

    def step(self, model_output, timestep, sample):
        t = timestep
        pred_original_sample = self.reconstruct_x0(sample, t, model_output)
        pred_prev_sample = self.q_posterior(pred_original_sample, sample, t)

        variance = 0
        if t > 0:
            noise = random_normal(model_output.shape)
            variance = (self.get_variance(t) ** 0.5) * noise

        pred_prev_sample = pred_prev_sample + variance

        return pred_prev_sample

    def add_noise(self, x_start, x_noise, timesteps):
        s1 = self.sqrt_alphas_cumprod[timesteps]
        s2 = self.sqrt_one_minus_alphas_cumprod[timesteps]

        s1 = reshape(s1, (-1, 1))
        s2 = reshape(s2, (-1, 1))

        return s1 * x_start + s2 * x_noise


def circle_dataset(n):
    theta = random_uniform((n,)) * (2 * math.pi)
    pts = stack((cos(theta), sin(theta)), axis=1)
    return pts + random_normal((n, 2)) * 0.05


def train_step(model, noise_scheduler, batch):
    noise = random_normal(batch.shape)
    timesteps = cast(random_uniform((batch.shape[0],)) * noise_scheduler.num_timesteps, i64)

    noisy = noise_scheduler.add_noise(batch, noise, timesteps)
    noise_pred = model(noisy, timesteps)
    loss = mean((noise_pred - noise) ** 2)
    return loss


def sample_points(model, noise_scheduler, eval_batch_size):
    sample = random_normal((eval_batch_size, 2))
    for i in range(noise_scheduler.num_timesteps):
        t = noise_scheduler.num_timesteps - 1 - i
        ts = full((eval_batch_size,), t, i64)
        residual = model(sample, ts)
        sample = noise_scheduler.step(residual, t, sample)
    return sample


if __name__ == "__main__":
    model = MLP(hidden_size=32, hidden_layers=2, emb_size=16,
                time_emb="sinusoidal", input_emb="sinusoidal")
    noise_scheduler = NoiseScheduler(num_timesteps=10, beta_schedule="linear")
    quad = NoiseScheduler(num_timesteps=10, beta_schedule="quadratic")

    losses = []
    for epoch in range(2):
        batch = circle_dataset(16)
        loss = train_step(model, noise_scheduler, batch)
        losses.append(loss)

    learnable = MLP(hidden_size=16, hidden_layers=1, emb_size=8,
                    time_emb="learnable", input_emb="identity")
    loss2 = train_step(learnable, quad, circle_dataset(8))

    frames = sample_points(model, noise_scheduler, 12)
    print("tiny diffusion ok", frames.shape, len(losses), loss2.shape)
