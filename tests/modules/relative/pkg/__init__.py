# The package's own names; its modules import each other relatively.
BASE = 10
