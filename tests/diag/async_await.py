# expect: unsupported (warning) for `async def` and for `await`; exit 0.
async def fetch(x):
    return x


async def main():
    y = await fetch(1)
    return y
