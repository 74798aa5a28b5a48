"""splitmix64 as bench/splitmix64.hpp computes it, bit for bit: the seeded draws the Python peers
share with the C++ benches and tests."""

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def next(self):
        self.state = (self.state + GOLDEN) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    def uniform(self, a, b):
        return a + (b - a) * float(self.next() >> 11) * 2.0**-53
