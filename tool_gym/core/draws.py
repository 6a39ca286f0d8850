"""Seeded draws for the domains' data generators."""

from __future__ import annotations

import string

import numpy as np

_ALNUM = string.ascii_lowercase + string.digits


class BlockDraws:
    """A generator's draws: picks, unique ids and characters, all from one
    ``numpy.random.default_rng(seed)`` stream read in blocks of uniforms (a Python float
    from a list is far cheaper than a call into numpy per draw). A domain's generator
    subclasses it with its own kinds of draw (amounts, days, moments)."""

    BLOCK = 1 << 14

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.used: set[str] = set()
        self._block: list[float] = []
        self._next = 0

    def random(self) -> float:
        """The next uniform draw in [0, 1)."""
        if self._next == len(self._block):
            self._block, self._next = self.rng.random(self.BLOCK).tolist(), 0
        self._next += 1
        return self._block[self._next - 1]

    def uniform(self, lo: float, hi: float) -> float:
        return lo + (hi - lo) * self.random()

    def pick(self, options):
        return options[int(self.random() * len(options))]

    def int(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` (both included)."""
        return lo + int(self.random() * (hi - lo + 1))

    def chance(self, p: float) -> bool:
        return self.random() < p

    def sample(self, options, k: int) -> list:
        """``k`` distinct items of ``options`` in a random order."""
        pool = list(options)
        for i in range(k):
            j = i + int(self.random() * (len(pool) - i))
            pool[i], pool[j] = pool[j], pool[i]
        return pool[:k]

    def chars(self, alphabet: str, n: int) -> str:
        return "".join(self.pick(alphabet) for _ in range(n))

    def token(self, prefix: str, n: int = 8) -> str:
        while True:
            text = self.pick(string.ascii_lowercase) + self.chars(_ALNUM, n - 1)
            if text not in self.used:
                self.used.add(text)
                return f"{prefix}_{text}"


class RngDraws:
    """Draws straight from a ``numpy.random.default_rng(seed)`` (one call per draw), and
    unique ids. A domain's generator subclasses it with its own kinds of draw."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng(seed)
        self.used: set[str] = set()

    def int(self, lo: int, hi: int) -> int:
        """An integer in ``lo..hi`` (both included)."""
        return int(self.rng.integers(lo, hi + 1))

    def chance(self, p: float) -> bool:
        return bool(self.rng.random() < p)

    def pick(self, options):
        return options[int(self.rng.integers(len(options)))]

    def sample(self, options, k: int) -> list:
        k = min(k, len(options))
        return [options[int(i)] for i in self.rng.choice(len(options), size=k, replace=False)]

    def token(self, prefix: str, n: int = 8) -> str:
        """``prefix_xxxxxxxx``: a letter first (created ids are digits, so never clash)."""
        while True:
            chars = [string.ascii_lowercase[self.int(0, 25)]] + \
                [_ALNUM[self.int(0, len(_ALNUM) - 1)] for _ in range(n - 1)]
            value = f"{prefix}_{''.join(chars)}"
            if value not in self.used:
                self.used.add(value)
                return value
