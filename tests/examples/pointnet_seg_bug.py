# expect-error at line 230: shape-mismatch
# Planted bug: the segmentation head's first shared MLP takes the 1024
# global features only, but PointNetfeat(global_feat=False) concatenates the
# 64 point features to them (1088 channels).
"""PointNet, translated from fxia22/pointnet.pytorch pointnet/model.py:
STN3d (the input transform net: shared MLP 3-64-128-1024, max pool over
the points, fully connected 1024-512-256-9, plus the flattened identity),
STNkd (the same for a k x k feature transform), PointNetfeat (input
transform, the first shared MLP, the optional feature transform, the rest
of the MLP and the global max pool, returning the global feature or its
concatenation with the point features), PointNetCls, PointNetDenseCls
(per-point segmentation) and feature_transform_regularizer.

Changed: nn.Module is fathom.Module; nn.Conv1d with kernel size 1 (the
shared MLP) is a small class whose forward is an einsum over the channel
axis; nn.Linear, nn.BatchNorm1d (inference form, with its running
statistics, through batch_norm) and nn.Dropout are small classes;
x.size()[i] is x.shape[i]; torch.max(x, 2, keepdim=True)[0] is
max(x, axis=2, keepdims=True); torch.bmm is matmul; `Variable(
torch.from_numpy(np.array([1,0,0,0,1,0,0,0,1])...)).view(1,9).repeat(
batchsize,1)` is tile(reshape(eye(3), (1, 9)), (batchsize, 1)); the
`.repeat(1, 1, n_pts)` of the global feature is tile; torch.cat is
concat; torch.norm(..., dim=(1, 2)) is the square root of the summed
squares; the `is_cuda` moves are dropped.  The networks keep the original
widths; the example runs 2 clouds of 32 points.
"""
from fathom import *

NUM_POINTS = 32
NUM_CLASSES = 4
NUM_PARTS = 3


class Conv1d(Module):
    """A kernel-size-1 Conv1d: the same linear map at every point."""

    def __init__(self, in_channels, out_channels, kernel_size=1):
        super().__init__()
        assert kernel_size == 1
        self.weight = random_normal((out_channels, in_channels)) * 0.05
        self.bias = zeros((out_channels,))

    def forward(self, x):
        return einsum("oc,bcn->bon", self.weight, x) + self.bias[:, None]


class Linear(Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = random_normal((out_features, in_features)) * 0.05
        self.bias = zeros((out_features,))

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class BatchNorm1d(Module):
    def __init__(self, num_features, eps=1e-5):
        super().__init__()
        self.weight = ones((num_features,))
        self.bias = zeros((num_features,))
        self.running_mean = zeros((num_features,))
        self.running_var = ones((num_features,))
        self.eps = eps

    def forward(self, x):
        return batch_norm(x, self.running_mean, self.running_var, self.weight, self.bias, self.eps)


class Dropout(Module):
    def __init__(self, p=0.5):
        super().__init__()
        self.p = p

    def forward(self, x):
        return dropout(x, self.p)


class STN3d(Module):
    def __init__(self):
        super(STN3d, self).__init__()
        self.conv1 = Conv1d(3, 64, 1)
        self.conv2 = Conv1d(64, 128, 1)
        self.conv3 = Conv1d(128, 1024, 1)
        self.fc1 = Linear(1024, 512)
        self.fc2 = Linear(512, 256)
        self.fc3 = Linear(256, 9)

        self.bn1 = BatchNorm1d(64)
        self.bn2 = BatchNorm1d(128)
        self.bn3 = BatchNorm1d(1024)
        self.bn4 = BatchNorm1d(512)
        self.bn5 = BatchNorm1d(256)

    def forward(self, x):
        batchsize = x.shape[0]
        x = relu(self.bn1(self.conv1(x)))
        x = relu(self.bn2(self.conv2(x)))
        x = relu(self.bn3(self.conv3(x)))
        x = max(x, axis=2, keepdims=True)
        x = x.view(-1, 1024)

        x = relu(self.bn4(self.fc1(x)))
        x = relu(self.bn5(self.fc2(x)))
        x = self.fc3(x)

        iden = tile(reshape(eye(3), (1, 9)), (batchsize, 1))
        x = x + iden
        x = x.view(-1, 3, 3)
        return x


class STNkd(Module):
    def __init__(self, k=64):
        super(STNkd, self).__init__()
        self.conv1 = Conv1d(k, 64, 1)
        self.conv2 = Conv1d(64, 128, 1)
        self.conv3 = Conv1d(128, 1024, 1)
        self.fc1 = Linear(1024, 512)
        self.fc2 = Linear(512, 256)
        self.fc3 = Linear(256, k * k)

        self.bn1 = BatchNorm1d(64)
        self.bn2 = BatchNorm1d(128)
        self.bn3 = BatchNorm1d(1024)
        self.bn4 = BatchNorm1d(512)
        self.bn5 = BatchNorm1d(256)

        self.k = k

    def forward(self, x):
        batchsize = x.shape[0]
        x = relu(self.bn1(self.conv1(x)))
        x = relu(self.bn2(self.conv2(x)))
        x = relu(self.bn3(self.conv3(x)))
        x = max(x, axis=2, keepdims=True)
        x = x.view(-1, 1024)

        x = relu(self.bn4(self.fc1(x)))
        x = relu(self.bn5(self.fc2(x)))
        x = self.fc3(x)

        iden = tile(reshape(eye(self.k), (1, self.k * self.k)), (batchsize, 1))
        x = x + iden
        x = x.view(-1, self.k, self.k)
        return x


class PointNetfeat(Module):
    def __init__(self, global_feat=True, feature_transform=False):
        super(PointNetfeat, self).__init__()
        self.stn = STN3d()
        self.conv1 = Conv1d(3, 64, 1)
        self.conv2 = Conv1d(64, 128, 1)
        self.conv3 = Conv1d(128, 1024, 1)
        self.bn1 = BatchNorm1d(64)
        self.bn2 = BatchNorm1d(128)
        self.bn3 = BatchNorm1d(1024)
        self.global_feat = global_feat
        self.feature_transform = feature_transform
        if self.feature_transform:
            self.fstn = STNkd(k=64)

    def forward(self, x):
        n_pts = x.shape[2]
        trans = self.stn(x)
        x = x.transpose(2, 1)
        x = matmul(x, trans)
        x = x.transpose(2, 1)
        x = relu(self.bn1(self.conv1(x)))

        if self.feature_transform:
            trans_feat = self.fstn(x)
            x = x.transpose(2, 1)
            x = matmul(x, trans_feat)
            x = x.transpose(2, 1)
        else:
            trans_feat = None

        pointfeat = x
        x = relu(self.bn2(self.conv2(x)))
        x = self.bn3(self.conv3(x))
        x = max(x, axis=2, keepdims=True)
        x = x.view(-1, 1024)
        if self.global_feat:
            return x, trans, trans_feat
        else:
            x = tile(x.view(-1, 1024, 1), (1, 1, n_pts))
            return concat([x, pointfeat], 1), trans, trans_feat


class PointNetCls(Module):
    def __init__(self, k=2, feature_transform=False):
        super(PointNetCls, self).__init__()
        self.feature_transform = feature_transform
        self.feat = PointNetfeat(global_feat=True, feature_transform=feature_transform)
        self.fc1 = Linear(1024, 512)
        self.fc2 = Linear(512, 256)
        self.fc3 = Linear(256, k)
        self.dropout = Dropout(p=0.3)
        self.bn1 = BatchNorm1d(512)
        self.bn2 = BatchNorm1d(256)

    def forward(self, x):
        x, trans, trans_feat = self.feat(x)
        x = relu(self.bn1(self.fc1(x)))
        x = relu(self.bn2(self.dropout(self.fc2(x))))
        x = self.fc3(x)
        return log_softmax(x, axis=1), trans, trans_feat


class PointNetDenseCls(Module):
    def __init__(self, k=2, feature_transform=False):
        super(PointNetDenseCls, self).__init__()
        self.k = k
        self.feature_transform = feature_transform
        self.feat = PointNetfeat(global_feat=False, feature_transform=feature_transform)
        self.conv1 = Conv1d(1024, 512, 1)
        self.conv2 = Conv1d(512, 256, 1)
        self.conv3 = Conv1d(256, 128, 1)
        self.conv4 = Conv1d(128, self.k, 1)
        self.bn1 = BatchNorm1d(512)
        self.bn2 = BatchNorm1d(256)
        self.bn3 = BatchNorm1d(128)

    def forward(self, x):
        batchsize = x.shape[0]
        n_pts = x.shape[2]
        x, trans, trans_feat = self.feat(x)
        x = relu(self.bn1(self.conv1(x)))
        x = relu(self.bn2(self.conv2(x)))
        x = relu(self.bn3(self.conv3(x)))
        x = self.conv4(x)
        x = x.transpose(2, 1)
        x = log_softmax(x.view(-1, self.k), axis=-1)
        x = x.view(batchsize, n_pts, self.k)
        return x, trans, trans_feat


def feature_transform_regularizer(trans):
    d = trans.shape[1]
    batchsize = trans.shape[0]
    I = eye(d)[None, :, :]
    diff = matmul(trans, trans.transpose(2, 1)) - I
    loss = mean(sqrt(reduce_sum(diff * diff, axis=(1, 2))))
    return loss


if __name__ == "__main__":
    sim_data = random_uniform((2, 3, NUM_POINTS))

    trans = STN3d()(sim_data)
    print("stn", trans.shape)
    assert trans.shape == (2, 3, 3)
    print("loss", float(feature_transform_regularizer(trans)))

    sim_data_64d = random_uniform((2, 64, NUM_POINTS))
    trans = STNkd(k=64)(sim_data_64d)
    assert trans.shape == (2, 64, 64)
    print("loss", float(feature_transform_regularizer(trans)))

    pointfeat = PointNetfeat(global_feat=True)
    out, _, _ = pointfeat(sim_data)
    assert out.shape == (2, 1024)

    pointfeat = PointNetfeat(global_feat=False)
    out, _, _ = pointfeat(sim_data)
    assert out.shape == (2, 1088, NUM_POINTS)

    cls = PointNetCls(k=NUM_CLASSES, feature_transform=True)
    out, _, trans_feat = cls(sim_data)
    assert out.shape == (2, NUM_CLASSES)
    print("class", out.shape, float(feature_transform_regularizer(trans_feat)))

    seg = PointNetDenseCls(k=NUM_PARTS)
    out, _, _ = seg(sim_data)
    assert out.shape == (2, NUM_POINTS, NUM_PARTS)
    print("seg", out.shape)
