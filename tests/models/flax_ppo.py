"""Proximal policy optimisation on Atari-shaped observations, translated from
google/flax examples/ppo: models.py's ActorCritic (three convolutions, a
dense trunk, a log-softmax policy head and a value head), ppo_lib.py's
gae_advantages (the backward generalised-advantage recursion over time
steps), loss_fn (clipped surrogate objective, value loss and entropy
bonus) and train_step's gradient step over shuffled minibatches, and
agent.py's policy_action.

Changed: the Flax module's parameters are a tuple of arrays built by
init_params and applied by a function (the functional JAX form); nn.Conv
with 'VALID' padding is conv2d on the NCHW transpose; the vmapped
`lp[a]` lookup of the taken action's log-probability is a one-hot sum;
jnp.array of the advantage list is stack; optax's Adam is plain SGD; the
environment rollout is random observations, actions and rewards; sizes
are small (36x36 frames of 2 stacked images, 2/4/4 channels, 8 hidden
units, one minibatch) because the reference runtime's grad uses finite
differences.
"""
from __future__ import annotations

from fathom import *

NUM_ACTIONS = 6
FRAME = 36
STACK = 2
NUM_AGENTS = 2
NUM_STEPS = 5
BATCH_SIZE = 10
NUM_EPOCHS = 1
GAMMA = 0.99
LAMBDA_ = 0.95
CLIP_PARAM = 0.1
VF_COEFF = 0.5
ENTROPY_COEFF = 0.01
LEARNING_RATE = 2.5e-4


def init_params(num_outputs):
    conv1 = (random_normal((2, STACK, 8, 8)) * 0.05, zeros((2,)))
    conv2 = (random_normal((4, 2, 4, 4)) * 0.05, zeros((4,)))
    conv3 = (random_normal((4, 4, 3, 3)) * 0.05, zeros((4,)))
    hidden = (random_normal((4, 8)) * 0.05, zeros((8,)))
    logits = (random_normal((8, num_outputs)) * 0.05, zeros((num_outputs,)))
    value = (random_normal((8, 1)) * 0.05, zeros((1,)))
    return (conv1, conv2, conv3, hidden, logits, value)


def conv_valid(x, kernel_bias, stride):
    """nn.Conv with padding='VALID' on an NHWC input."""
    kernel, bias = kernel_bias
    y = conv2d(permute(x, 0, 3, 1, 2), kernel, stride=stride, bias=bias)
    return permute(y, 0, 2, 3, 1)


def actor_critic(params, x):
    """ActorCritic.__call__: log-probabilities of the actions and the value."""
    conv1, conv2, conv3, hidden, logits_layer, value_layer = params
    x = cast(x, f32) / 255.0
    x = relu(conv_valid(x, conv1, 4))
    x = relu(conv_valid(x, conv2, 2))
    x = relu(conv_valid(x, conv3, 1))
    x = x.reshape((x.shape[0], -1))
    x = relu(x @ hidden[0] + hidden[1])
    logits = x @ logits_layer[0] + logits_layer[1]
    policy_log_probabilities = log_softmax(logits)
    value = x @ value_layer[0] + value_layer[1]
    return policy_log_probabilities, value


def policy_action(params, state):
    """agent.policy_action: forward pass of the network."""
    return actor_critic(params, state)


def gae_advantages(rewards, terminal_masks, values, discount, gae_param):
    """Generalised advantage estimates of a trajectory (time major)."""
    assert rewards.shape[0] + 1 == values.shape[0], ("One more value needed; Eq. "
                                                     "(12) in PPO paper requires "
                                                     "V(s_{t+1}) for delta_t")
    advantages = []
    gae = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        # Masks used to set next state value to 0 for terminal states.
        value_diff = discount * values[t + 1] * terminal_masks[t] - values[t]
        delta = rewards[t] + value_diff
        # Masks[t] used to ensure that values before and after a terminal state
        # are independent of each other.
        gae = delta + discount * gae_param * terminal_masks[t] * gae
        advantages.append(gae)
    advantages = advantages[::-1]
    return stack(advantages)


def loss_fn(params, minibatch, clip_param, vf_coeff, entropy_coeff):
    """Evaluate the PPO loss function."""
    states, actions, old_log_probs, returns, advantages = minibatch
    log_probs, values = policy_action(params, states)
    values = values[:, 0]  # Convert shapes: (batch, 1) to (batch, ).
    probs = exp(log_probs)

    value_loss = mean((returns - values) ** 2, axis=0)

    entropy = mean(reduce_sum(-probs * log_probs, axis=1))

    log_probs_act_taken = reduce_sum(log_probs * one_hot(actions, log_probs.shape[1]), axis=1)
    ratios = exp(log_probs_act_taken - old_log_probs)
    # Advantage normalization (following the OpenAI baselines).
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    pg_loss = ratios * advantages
    clipped_loss = advantages * clip(ratios, 1.0 - clip_param, 1.0 + clip_param)
    ppo_loss = -mean(minimum(pg_loss, clipped_loss), axis=0)

    return ppo_loss + vf_coeff * value_loss - entropy_coeff * entropy


def sgd(params, grads, lr):
    return tuple((w - lr * dw, b - lr * db) for (w, b), (dw, db) in zip(params, grads))


def train_step(params, trajectories, batch_size):
    """Compilable train step over the minibatches of one epoch."""
    states, actions, old_log_probs, returns, advantages = trajectories
    iterations = states.shape[0] // batch_size
    loss = 0.0
    for i in range(iterations):
        lo, hi = i * batch_size, (i + 1) * batch_size
        minibatch = (states[lo:hi], actions[lo:hi], old_log_probs[lo:hi], returns[lo:hi], advantages[lo:hi])
        l, grads = value_and_grad(loss_fn)(params, minibatch, CLIP_PARAM, VF_COEFF, ENTROPY_COEFF)
        params = sgd(params, grads, LEARNING_RATE)
        loss = loss + l
    return params, loss


def process_experience(params, states, actions, rewards, dones):
    """ppo_lib.process_experience: returns and advantages of a rollout."""
    flat_states = states.reshape((NUM_STEPS * NUM_AGENTS, FRAME, FRAME, STACK))
    log_probs, values = policy_action(params, flat_states)
    values = values.reshape((NUM_STEPS, NUM_AGENTS))
    last_values = zeros((1, NUM_AGENTS))
    all_values = concat([values, last_values], axis=0)
    terminal_masks = 1.0 - cast(dones, f32)
    advantages = gae_advantages(rewards, terminal_masks, all_values, GAMMA, LAMBDA_)
    returns = advantages + all_values[:-1]
    taken = reduce_sum(log_probs * one_hot(actions.reshape((-1,)), NUM_ACTIONS), axis=1)
    return (flat_states, actions.reshape((-1,)), taken, returns.reshape((-1,)), advantages.reshape((-1,)))


def ppo_iteration(conv1_w: Tensor[f32, (2, 2, 8, 8)], conv1_b: Tensor[f32, (2,)],
                  conv2_w: Tensor[f32, (4, 2, 4, 4)], conv2_b: Tensor[f32, (4,)],
                  conv3_w: Tensor[f32, (4, 4, 3, 3)], conv3_b: Tensor[f32, (4,)],
                  hidden_w: Tensor[f32, (4, 8)], hidden_b: Tensor[f32, (8,)],
                  logits_w: Tensor[f32, (8, 6)], logits_b: Tensor[f32, (6,)],
                  value_w: Tensor[f32, (8, 1)], value_b: Tensor[f32, (1,)],
                  states: Tensor[u8, (5, 2, 36, 36, 2)], actions: Tensor[i64, (5, 2)],
                  rewards: Tensor[f32, (5, 2)], dones: Tensor[bool_, (5, 2)]):
    """One iteration of ppo_lib.train on a rollout of NUM_STEPS steps of
    NUM_AGENTS agents: process_experience, then train_step's epoch, with
    the parameter tuple init_params makes."""
    params = ((conv1_w, conv1_b), (conv2_w, conv2_b), (conv3_w, conv3_b),
              (hidden_w, hidden_b), (logits_w, logits_b), (value_w, value_b))
    trajectories = process_experience(params, states, actions, rewards, dones)
    return train_step(params, trajectories, BATCH_SIZE)


if __name__ == "__main__":
    params = init_params(NUM_ACTIONS)
    states = cast(random_uniform((NUM_STEPS, NUM_AGENTS, FRAME, FRAME, STACK)) * 255.0, u8)
    actions = cast(random_uniform((NUM_STEPS, NUM_AGENTS)) * NUM_ACTIONS, i64)
    rewards = random_uniform((NUM_STEPS, NUM_AGENTS))
    dones = random_uniform((NUM_STEPS, NUM_AGENTS)) > 0.8
    trajectories = process_experience(params, states, actions, rewards, dones)
    for epoch in range(NUM_EPOCHS):
        params, loss = train_step(params, trajectories, BATCH_SIZE)
        print("ppo epoch", epoch, "loss", float(loss))
