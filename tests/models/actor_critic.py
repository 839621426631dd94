"""Actor-critic on CartPole, translated from pytorch/examples
reinforcement_learning/actor_critic.py: the Policy module with its shared
affine layer, actor (action_head, softmax) and critic (value_head) heads;
select_action sampling from the categorical distribution; finish_episode
computing the discounted, normalised returns and the policy and smooth-L1
value losses; main's episode loop with its running reward.

Changed: nn.Module is fathom.Module; nn.Linear is a small class; gym's
CartPole-v1 is written out here (CartPoleEnv's Euler step, reward and
termination thresholds, from gymnasium's cartpole.py) with the state a
(4,) tensor; Categorical(probs).sample() is the Gumbel-max trick and
log_prob is log(probs[action]); the SavedAction namedtuple is a tuple;
the action and reward buffers are lists the episode returns (an instance
is immutable once built, so `model.saved_actions.append` becomes a local
list); torch.tensor(returns) is a stack of 0-d tensors; the optimizer
step is left out (the loss is returned); episodes are capped at 40 steps
and the hidden layer is 32 wide so the file runs fast.
"""
import math

from fathom import *

GAMMA = 0.99
LOG_INTERVAL = 1
EPS = 1.1920929e-07  # np.finfo(np.float32).eps


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.1
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class CartPoleEnv:
    """gymnasium's CartPole-v1 dynamics (Euler integration)."""

    def __init__(self):
        self.gravity = 9.8
        self.masscart = 1.0
        self.masspole = 0.1
        self.total_mass = self.masspole + self.masscart
        self.length = 0.5  # actually half the pole's length
        self.polemass_length = self.masspole * self.length
        self.force_mag = 10.0
        self.tau = 0.02  # seconds between state updates
        # Angle at which to fail the episode
        self.theta_threshold_radians = 12 * 2 * math.pi / 360
        self.x_threshold = 2.4
        self.reward_threshold = 475.0

    def reset(self):
        return random_uniform((4,)) * 0.1 - 0.05

    def step(self, state, action):
        x, x_dot, theta, theta_dot = state[0], state[1], state[2], state[3]
        force = self.force_mag if action == 1 else -self.force_mag
        costheta = cos(theta)
        sintheta = sin(theta)

        temp = (force + self.polemass_length * theta_dot ** 2 * sintheta) / self.total_mass
        thetaacc = (self.gravity * sintheta - costheta * temp) / (
            self.length * (4.0 / 3.0 - self.masspole * costheta ** 2 / self.total_mass)
        )
        xacc = temp - self.polemass_length * thetaacc * costheta / self.total_mass

        x = x + self.tau * x_dot
        x_dot = x_dot + self.tau * xacc
        theta = theta + self.tau * theta_dot
        theta_dot = theta_dot + self.tau * thetaacc

        terminated = bool(
            x < -self.x_threshold
            or x > self.x_threshold
            or theta < -self.theta_threshold_radians
            or theta > self.theta_threshold_radians
        )
        return stack([x, x_dot, theta, theta_dot]), 1.0, terminated


class Policy(Module):
    """
    implements both actor and critic in one model
    """

    def __init__(self):
        super(Policy, self).__init__()
        self.affine1 = Linear(4, 32)

        # actor's layer
        self.action_head = Linear(32, 2)

        # critic's layer
        self.value_head = Linear(32, 1)

    def forward(self, x):
        """
        forward of both actor and critic
        """
        x = relu(self.affine1(x))

        # actor: choses action to take from state s_t
        # by returning probability of each action
        action_prob = softmax(self.action_head(x), axis=-1)

        # critic: evaluates being in the state s_t
        state_values = self.value_head(x)

        # return values for both actor and critic as a tuple of 2 values:
        # 1. a list with the probability of each action over the action space
        # 2. the value from state s_t
        return action_prob, state_values


def select_action(model, state):
    probs, state_value = model(state)

    # sample an action from the categorical distribution (Gumbel-max)
    gumbel = -log(-log(random_uniform(probs.shape)))
    action = int(argmax(log(probs) + gumbel))

    # the action to take (left or right), with what finish_episode needs
    return action, (log(probs[action]), state_value)


def smooth_l1_loss(input, target):
    diff = abs(input - target)
    return mean(where(diff < 1.0, 0.5 * diff ** 2, diff - 0.5))


def finish_episode(saved_actions, rewards):
    """
    Training code. Calculates actor and critic loss.
    """
    R = 0.0
    policy_losses = []  # list to save actor (policy) loss
    value_losses = []  # list to save critic (value) loss
    returns = []  # list to save the true values

    # calculate the true value using rewards returned from the environment
    for r in rewards[::-1]:
        # calculate the discounted value
        R = r + GAMMA * R
        returns = [R] + returns

    returns = stack([full((), r) for r in returns])
    returns = (returns - mean(returns)) / (std(returns) + EPS)

    for (log_prob, value), R in zip(saved_actions, returns):
        advantage = R - float(value[0])

        # calculate actor (policy) loss
        policy_losses.append(-log_prob * advantage)

        # calculate critic (value) loss using L1 smooth loss
        value_losses.append(smooth_l1_loss(value, reshape(R, (1,))))

    # sum up all the values of policy_losses and value_losses
    loss = reduce_sum(stack(policy_losses)) + reduce_sum(stack(value_losses))
    return loss


def run_episode(env, model, max_steps):
    state = env.reset()
    ep_reward = 0.0
    saved_actions = []
    rewards = []
    for t in range(1, max_steps):
        # select action from policy
        action, saved = select_action(model, state)
        saved_actions.append(saved)

        # take the action
        state, reward, terminated = env.step(state, action)
        rewards.append(reward)
        ep_reward += reward
        if terminated:
            break
    return saved_actions, rewards, ep_reward


def main(num_episodes):
    env = CartPoleEnv()
    model = Policy()
    running_reward = 10.0
    for i_episode in range(1, num_episodes + 1):
        saved_actions, rewards, ep_reward = run_episode(env, model, 40)

        # update cumulative reward
        running_reward = 0.05 * ep_reward + (1 - 0.05) * running_reward

        loss = finish_episode(saved_actions, rewards)

        # log results
        if i_episode % LOG_INTERVAL == 0:
            print(f'Episode {i_episode}\tLast reward: {ep_reward:.2f}\tAverage reward: {running_reward:.2f}\tLoss: {float(loss):.3f}')

        # check if we have "solved" the cart pole problem
        if running_reward > env.reward_threshold:
            print(f"Solved! Running reward is now {running_reward}!")
            break
    return running_reward


if __name__ == "__main__":
    running_reward = main(3)
    print("actor critic ok", running_reward)
