"""The scripted user in every conversation id: neither fooled by wrong or catch-all
proposals nor fussy about a correct proposal's wording (issue #11, item 4)."""

from collections import Counter

import pytest

from tool_gym import CONVERSATION_IDS
from tests.core.styles import STYLES, play, user_verdicts

TASKS = 100
STYLE_TASKS = 12


@pytest.mark.parametrize("env_id", CONVERSATION_IDS)
def test_wrong_and_catch_all_proposals_are_not_confirmed(env_id):
    sent, confirmed = Counter(), Counter()
    for seed in range(TASKS):
        for kind, yes in user_verdicts(env_id, seed):
            sent[kind] += 1
            confirmed[kind] += yes
    assert sent["catch-all"] >= 20 and sent["substituted"] >= 20, sent  # exercised
    assert confirmed["catch-all"] == 0, (confirmed, sent)
    for kind in sent:
        assert confirmed[kind] <= 0.01 * sent[kind], (kind, confirmed, sent)


@pytest.mark.parametrize("env_id", CONVERSATION_IDS)
@pytest.mark.parametrize("style", STYLES)
def test_the_oracles_proposals_in_other_styles_are_confirmed(env_id, style):
    declined: list = []
    for seed in range(STYLE_TASKS):
        play(env_id, seed, style, declined=declined)
    assert not declined, declined[:3]


def test_styles_really_rewrite():
    from tests.core.styles import rewrite
    text = "I will refund $1,202.50 on 2024-05-03 for 2 items, cancelled. Shall I proceed?"
    assert rewrite(text, "formats") != text and "May 3, 2024" in rewrite(text, "formats")
    assert rewrite(text, "markdown").startswith("### Summary")
    assert rewrite(text, "question").endswith("Sound good?")
