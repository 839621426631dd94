"""REINFORCE on CartPole, translated from pytorch/examples
reinforcement_learning/reinforce.py: the Policy (affine1, dropout 0.6,
relu, affine2, softmax over the actions), select_action sampling from
the categorical distribution of a batch of one state, finish_episode
computing the discounted returns, normalising them and summing
-log_prob * R, and main's episode loop with its running reward.

Changed: written with `import fathom as F` as the original writes
`torch.nn.functional as F`; nn.Linear and nn.Dropout are small Modules
(the dropout mask is drawn with random_uniform); CartPole-v1 is two
module-level functions over a (4,) state (gymnasium's Euler step and
termination thresholds); Categorical(probs).sample() is the Gumbel-max
trick and m.log_prob(action) is log(probs[0, action]); the policy's
saved_log_probs and rewards lists are local lists the episode returns
(an instance is immutable once built); returns.appendleft on a deque is
prepending to a list; the optimizer step is left out (the loss is
returned); episodes are capped at 30 steps and there are 3 of them.
"""
import math

import fathom as F

GAMMA = 0.99
LOG_INTERVAL = 1
EPS = 1.1920929e-07  # np.finfo(np.float32).eps.item()
REWARD_THRESHOLD = 475.0
MAX_STEPS = 30
EPISODES = 3


class Linear(F.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        bound = 1.0 / math.sqrt(in_features)
        self.weight = (F.random_uniform((out_features, in_features)) * 2.0 - 1.0) * bound
        self.bias = (F.random_uniform((out_features,)) * 2.0 - 1.0) * bound

    def forward(self, input):
        return F.linear(input, self.weight, self.bias)


class Dropout(F.Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, input):
        keep = F.random_uniform(input.shape) >= self.p
        return F.where(keep, input / (1.0 - self.p), 0.0)


class Policy(F.Module):
    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = Linear(4, 128)
        self.dropout = Dropout(p=0.6)
        self.affine2 = Linear(128, 2)

    def forward(self, x):
        x = self.affine1(x)
        x = self.dropout(x)
        x = F.relu(x)
        action_scores = self.affine2(x)
        return F.softmax(action_scores, axis=1)


def env_reset():
    return F.random_uniform((4,)) * 0.1 - 0.05


def env_step(state, action):
    gravity, masscart, masspole, length = 9.8, 1.0, 0.1, 0.5
    total_mass = masspole + masscart
    polemass_length = masspole * length
    force = 10.0 if action == 1 else -10.0
    x, x_dot, theta, theta_dot = state[0], state[1], state[2], state[3]
    costheta, sintheta = F.cos(theta), F.sin(theta)
    temp = (force + polemass_length * theta_dot * theta_dot * sintheta) / total_mass
    thetaacc = (gravity * sintheta - costheta * temp) / (
        length * (4.0 / 3.0 - masspole * costheta * costheta / total_mass))
    xacc = temp - polemass_length * thetaacc * costheta / total_mass
    tau = 0.02
    state = F.stack([x + tau * x_dot, x_dot + tau * xacc,
                     theta + tau * theta_dot, theta_dot + tau * thetaacc])
    done = bool(abs(float(state[0])) > 2.4 or abs(float(state[2])) > 12 * 2 * math.pi / 360)
    return state, 1.0, done


def select_action(policy, state):
    state = F.expand_dims(state, 0)
    probs = policy(state)
    gumbel = -F.log(-F.log(F.random_uniform(probs.shape)))
    action = int(F.argmax(F.log(probs) + gumbel, axis=1)[0])
    return action, F.log(probs[0, action])


def finish_episode(saved_log_probs, rewards):
    R = 0.0
    policy_loss = []
    returns = []
    for r in rewards[::-1]:
        R = r + GAMMA * R
        returns = [R] + returns
    returns = F.stack([F.full((), R) for R in returns])
    returns = (returns - returns.mean()) / (returns.std() + EPS)
    for log_prob, R in zip(saved_log_probs, returns):
        policy_loss.append(F.reshape(-log_prob * R, (1,)))
    return F.concat(policy_loss, 0).sum()


def main():
    policy = Policy()
    running_reward = 10.0
    for i_episode in range(1, EPISODES + 1):
        state, ep_reward = env_reset(), 0.0
        saved_log_probs = []
        rewards = []
        for t in range(1, MAX_STEPS):  # Don't infinite loop while learning
            action, log_prob = select_action(policy, state)
            saved_log_probs.append(log_prob)
            state, reward, done = env_step(state, action)
            rewards.append(reward)
            ep_reward += reward
            if done:
                break

        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward
        loss = finish_episode(saved_log_probs, rewards)
        if i_episode % LOG_INTERVAL == 0:
            print(f'Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: '
                  f'{running_reward:.2f}\tloss {float(loss):.3f}')
        if running_reward > REWARD_THRESHOLD:
            print(f"Solved! Running reward is now {running_reward}")
            break


if __name__ == '__main__':
    main()
