"""The generators' shared building blocks: unique draws, numbered names, tokens, phones."""

from __future__ import annotations

import random
import re

from tool_gym.core.fake_data import (
    Tokens,
    digits,
    draw_unique,
    first_numbered,
    numbered,
    phone,
)


def test_draw_unique_redraws_until_new_and_records_it():
    values = iter([1, 1, 2, 3])
    taken = {1}
    assert draw_unique(lambda: next(values), taken) == 2
    assert taken == {1, 2}


def test_numbered_names_count_from_two():
    taken: set[str] = set()
    assert [numbered("ana", taken) for _ in range(3)] == ["ana", "ana2", "ana3"]
    assert first_numbered(lambda k: f"a{k}@x.com", taken) == "a@x.com"
    assert first_numbered(lambda k: f"a{k}@x.com", taken) == "a2@x.com"


def test_tokens_are_unique_start_with_a_letter_and_follow_the_seed():
    tokens = Tokens(random.Random(5))
    drawn = [tokens("acc") for _ in range(200)] + [tokens("txn", 10)]
    assert len(set(drawn)) == len(drawn)
    assert all(re.fullmatch(r"acc_[a-z][a-z0-9]{7}", t) for t in drawn[:200])
    assert re.fullmatch(r"txn_[a-z][a-z0-9]{9}", drawn[-1])
    again = Tokens(random.Random(5))
    assert [again("acc") for _ in range(200)] == drawn[:200]


def test_digits_and_phone_numbers():
    rng = random.Random(0)
    assert re.fullmatch(r"\d{10}", digits(rng, 10))
    assert re.fullmatch(r"\+1-555-[2-9]\d\d-\d{4}", phone(rng))
