# src/ is a root only because of `path` in pyproject.toml.
FACTOR = 3
