# expect-error at line 140: shape-mismatch
# expect-error at line 159: shape-mismatch
# expect-error at line 204: shape-mismatch
# Planted bug: the critic is built with the actor's output size (one value per action), copied from the line below, so each use of its values breaks: value.flatten() holds num_envs * 2 values where values[step] has room for num_envs, the bootstrap next_value is (1, 2 * num_envs) in the GAE step, and the minibatch newvalue is twice the returns' length.
"""PPO with GAE on a vectorised CartPole, translated from vwxyzjn/cleanrl
cleanrl/ppo.py: the Agent's tanh actor and critic MLPs (layer_init's
std, 0.01 for the policy head, 1.0 for the value head),
get_action_and_value with its categorical sample, log-prob and entropy,
the rollout storage filled step by step, the reversed GAE loop
(nextnonterminal, lastgaelam), the batch flattening, the shuffled
minibatch indices, the clipped surrogate policy loss, the clipped value
loss, the entropy bonus, the approx-KL early stop and the explained
variance.

Changed: nn.Module is fathom.Module, nn.Linear a small class and
nn.Sequential a fixed forward; orthogonal_ init is a scaled normal;
Categorical(logits=...) is written out (sample by the Gumbel-max trick,
log_prob and entropy from log_softmax); the Args dataclass is a plain
class; gym's SyncVectorEnv of CartPole-v1 is a stand-in vector env
(random observations, reward 1, random terminations) with the same
shapes; np.random.shuffle(b_inds) is a permutation found as the top-k
indices of uniform noise; torch.clamp is clip, torch.max of two tensors
maximum; `advantages[t] = lastgaelam = ...` is two statements; reversed(range(n))
is range(n - 1, -1, -1) and np.nan float("nan") (the DSL has neither
reversed nor math.nan); the
optimizer step, annealing and logging are left out (the last loss is
returned); 4 envs, 16 steps, 4 minibatches, 2 epochs, 2 iterations so the
file runs fast.
"""
import math

from fathom import *


class Args:
    def __init__(self):
        self.num_envs = 4
        self.num_steps = 16
        self.gamma = 0.99
        self.gae_lambda = 0.95
        self.num_minibatches = 4
        self.update_epochs = 2
        self.norm_adv = True
        self.clip_coef = 0.2
        self.clip_vloss = True
        self.ent_coef = 0.01
        self.vf_coef = 0.5
        self.target_kl = 0.5
        self.num_iterations = 2
        self.batch_size = int(self.num_envs * self.num_steps)
        self.minibatch_size = int(self.batch_size // self.num_minibatches)


class CartPoleVecEnv:
    """Shapes of gym.vector.SyncVectorEnv over CartPole-v1."""

    def __init__(self, num_envs):
        self.num_envs = num_envs
        self.single_observation_space_shape = (4,)
        self.single_action_space_shape = ()
        self.single_action_space_n = 2

    def reset(self):
        return random_uniform((self.num_envs,) + self.single_observation_space_shape) * 0.1 - 0.05

    def step(self, action):
        next_obs = random_uniform((self.num_envs,) + self.single_observation_space_shape) * 0.1 - 0.05
        reward = ones((self.num_envs,))
        terminations = random_uniform((self.num_envs,)) < 0.05
        truncations = zeros((self.num_envs,)) > 1.0
        return next_obs, reward, terminations, truncations


class Linear(Module):
    def __init__(self, in_features, out_features, std=math.sqrt(2), bias_const=0.0):
        super().__init__()
        # layer_init: orthogonal_(weight, std), constant_(bias, bias_const)
        self.weight = random_normal((out_features, in_features)) * (std / math.sqrt(in_features))
        self.bias = full((out_features,), bias_const)

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class MLP(Module):
    def __init__(self, in_features, out_features, std):
        super().__init__()
        self.fc1 = Linear(in_features, 64)
        self.fc2 = Linear(64, 64)
        self.fc3 = Linear(64, out_features, std=std)

    def forward(self, x):
        return self.fc3(tanh(self.fc2(tanh(self.fc1(x)))))


class Agent(Module):
    def __init__(self, envs):
        super().__init__()
        obs_dim = envs.single_observation_space_shape[0]
        self.critic = MLP(obs_dim, envs.single_action_space_n, 1.0)
        self.actor = MLP(obs_dim, envs.single_action_space_n, 0.01)
        self.n = envs.single_action_space_n

    def get_value(self, x):
        return self.critic(x)

    def get_action_and_value(self, x, action=None):
        logits = self.actor(x)
        logp = log_softmax(logits, axis=-1)
        if action is None:
            gumbel = -log(-log(random_uniform(logits.shape)))
            action = argmax(logits + gumbel, axis=-1)
        log_prob = reduce_sum(logp * one_hot(action, self.n), axis=-1)
        entropy = -reduce_sum(exp(logp) * logp, axis=-1)
        return action, log_prob, entropy, self.critic(x)


def train(args, envs, agent):
    # ALGO Logic: Storage setup
    obs = zeros((args.num_steps, args.num_envs) + envs.single_observation_space_shape)
    actions = zeros((args.num_steps, args.num_envs) + envs.single_action_space_shape, dtype=i64)
    logprobs = zeros((args.num_steps, args.num_envs))
    rewards = zeros((args.num_steps, args.num_envs))
    dones = zeros((args.num_steps, args.num_envs))
    values = zeros((args.num_steps, args.num_envs))

    global_step = 0
    next_obs = envs.reset()
    next_done = zeros((args.num_envs,))
    loss = zeros(())
    explained_var = 0.0

    for iteration in range(1, args.num_iterations + 1):
        for step in range(0, args.num_steps):
            global_step += args.num_envs
            obs[step] = next_obs
            dones[step] = next_done

            action, logprob, _, value = agent.get_action_and_value(next_obs)
            values[step] = flatten(value)
            actions[step] = action
            logprobs[step] = logprob

            next_obs, reward, terminations, truncations = envs.step(action)
            next_done = cast(terminations | truncations, f32)
            rewards[step] = reshape(reward, (-1,))

        # bootstrap value if not done
        next_value = reshape(agent.get_value(next_obs), (1, -1))
        advantages = zeros_like(rewards)
        lastgaelam = 0
        for t in range(args.num_steps - 1, -1, -1):
            if t == args.num_steps - 1:
                nextnonterminal = 1.0 - next_done
                nextvalues = next_value
            else:
                nextnonterminal = 1.0 - dones[t + 1]
                nextvalues = values[t + 1]
            delta = rewards[t] + args.gamma * nextvalues * nextnonterminal - values[t]
            lastgaelam = delta + args.gamma * args.gae_lambda * nextnonterminal * lastgaelam
            advantages[t] = lastgaelam
        returns = advantages + values

        # flatten the batch
        b_obs = reshape(obs, (-1,) + envs.single_observation_space_shape)
        b_logprobs = reshape(logprobs, (-1,))
        b_actions = reshape(actions, (-1,) + envs.single_action_space_shape)
        b_advantages = reshape(advantages, (-1,))
        b_returns = reshape(returns, (-1,))
        b_values = reshape(values, (-1,))

        # Optimizing the policy and value network
        clipfracs = []
        for epoch in range(args.update_epochs):
            _, b_inds = topk(random_uniform((args.batch_size,)), args.batch_size)
            approx_kl = 0.0
            for start in range(0, args.batch_size, args.minibatch_size):
                end = start + args.minibatch_size
                mb_inds = b_inds[start:end]

                _, newlogprob, entropy, newvalue = agent.get_action_and_value(b_obs[mb_inds], b_actions[mb_inds])
                logratio = newlogprob - b_logprobs[mb_inds]
                ratio = exp(logratio)

                # calculate approx_kl http://joschu.net/blog/kl-approx.html
                old_approx_kl = mean(-logratio)
                approx_kl = float(mean((ratio - 1) - logratio))
                clipfracs += [float(mean(cast(abs(ratio - 1.0) > args.clip_coef, f32)))]

                mb_advantages = b_advantages[mb_inds]
                if args.norm_adv:
                    mb_advantages = (mb_advantages - mean(mb_advantages)) / (std(mb_advantages) + 1e-8)

                # Policy loss
                pg_loss1 = -mb_advantages * ratio
                pg_loss2 = -mb_advantages * clip(ratio, 1 - args.clip_coef, 1 + args.clip_coef)
                pg_loss = mean(maximum(pg_loss1, pg_loss2))

                # Value loss
                newvalue = reshape(newvalue, (-1,))
                if args.clip_vloss:
                    v_loss_unclipped = (newvalue - b_returns[mb_inds]) ** 2
                    v_clipped = b_values[mb_inds] + clip(
                        newvalue - b_values[mb_inds],
                        -args.clip_coef,
                        args.clip_coef,
                    )
                    v_loss_clipped = (v_clipped - b_returns[mb_inds]) ** 2
                    v_loss_max = maximum(v_loss_unclipped, v_loss_clipped)
                    v_loss = 0.5 * mean(v_loss_max)
                else:
                    v_loss = 0.5 * mean((newvalue - b_returns[mb_inds]) ** 2)

                entropy_loss = mean(entropy)
                loss = pg_loss - args.ent_coef * entropy_loss + v_loss * args.vf_coef

            if args.target_kl is not None and approx_kl > args.target_kl:
                break

        y_pred, y_true = b_values, b_returns
        var_y = float(var(y_true))
        explained_var = float("nan") if var_y == 0 else 1 - float(var(y_true - y_pred)) / var_y
    return loss, explained_var, global_step


if __name__ == "__main__":
    args = Args()
    envs = CartPoleVecEnv(args.num_envs)
    agent = Agent(envs)
    loss, explained_var, global_step = train(args, envs, agent)
    assert loss.shape == ()
    assert global_step == args.num_iterations * args.num_steps * args.num_envs
    print("cleanrl ppo ok", float(loss), explained_var)
