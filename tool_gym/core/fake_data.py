"""Seeded building blocks the domain generators share: unique ids and names, phone numbers.

Every helper draws only from the ``random.Random`` it is given, in a fixed order, so a
generator that uses them gives the same data for the same seed.
"""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_ALNUM = string.ascii_lowercase + string.digits


def draw_unique(make: Callable[[], T], taken: set) -> T:
    """Calls ``make`` until it gives a value not in ``taken``; records that value and returns it."""
    while True:
        value = make()
        if value not in taken:
            taken.add(value)
            return value


def first_numbered(make: Callable[[str], str], taken: set[str]) -> str:
    """The first of ``make("")``, ``make("2")``, ``make("3")``, ... not in ``taken``; recorded."""
    suffix = 1
    while True:
        value = make("" if suffix == 1 else str(suffix))
        if value not in taken:
            taken.add(value)
            return value
        suffix += 1


def numbered(base: str, taken: set[str]) -> str:
    """The first of ``base``, ``base2``, ``base3``, ... not in ``taken``; recorded."""
    return first_numbered(lambda suffix: f"{base}{suffix}", taken)


def digits(rng: random.Random, k: int) -> str:
    """``k`` random decimal digits."""
    return "".join(rng.choices(string.digits, k=k))


def phone(rng: random.Random) -> str:
    """A fictional US phone number ``+1-555-NNN-NNNN``."""
    return f"+1-555-{rng.randint(200, 999)}-{rng.randint(0, 9999):04d}"


class Tokens:
    """Unique ids ``prefix_xxxxxxxx``: a letter, then letters and digits.

    The first character is a letter because ids the tools create are digits after the
    prefix, so generated and created ids never collide.
    """

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def __call__(self, prefix: str, n: int = 8) -> str:
        rng = self.rng
        text = draw_unique(
            lambda: rng.choice(string.ascii_lowercase) + "".join(rng.choices(_ALNUM, k=n - 1)),
            self.used)
        return f"{prefix}_{text}"
