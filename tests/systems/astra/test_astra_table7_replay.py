"""Table 7 replayed row by row: at each of the agent's offers, the agent is given the paper's own
history up to that row (the questions answered -- highest firewood, lowest food -- its own earlier
offers and the partner's offers as Table 7 prints them) and its tactic and offer are checked
against the row.  Table 7 is the paper's worked example of stage 3; the RC ranking's floor at the
partner's standing offer (``rc_floor``) is fitted to it (docs/systems/astra.md, "Table 7 row by row").

| row | history | Table 7 | astra-agent-v4 | astra-agent-v3 |
|---|---|---|---|---|
| 1 | no offer | AIO, 30 (3, 3, 1) | AEO, 33 (3, 3, 2) | AEO, 33 |
| 2 | + partner 17/21 | AEO, 30 | AEO, 30 | AEO, 30 |
| 3 | + 30, partner 17/21 | NCR, 30 | NCR, 30 | NCR, 30 |
| 4 | + 30, partner 16/20 | RC, 26 (3, 2, 1) | RC, 26 | RC, 26 |
| 5 | + 26, partner 22/18 | RC, 23 (3, 2, 0) | RC, 23 | RC, 22 (2, 3, 0) |

Row 1 is not reproduced by any reading: "AIO" is not one of Table 5's tactics, and no passage
removes the 33-point outcome (it leaves the partner 5 points, which Figure 8's LP allows)."""

from __future__ import annotations

import numpy as np
import pytest

from mockllm.client import ModelClient
from mockllm.mock import MockBackend
from policies.astra import V2_CHOICES, V3_CHOICES, AstraAgent
from scenarios.bilateral import load_domain
from simcore.protocols.alternating import Observation, Turn

CASINO = load_domain("casino-v1")
#: the agent's offers in Table 7 as (food, water, firewood) it takes, and the partner's offers as
#: what they leave the agent: 17/21, 17/21, 16/20, 22/18
AGENT = [(3, 3, 1), (3, 3, 1), (3, 3, 1), (3, 2, 1), (3, 2, 0)]
PARTNER = [(2, 1, 1), (2, 1, 1), (1, 2, 1), (3, 1, 1)]
#: Table 7's rows: (tactic, agent score, outcome) of the agent's k-th offer
ROWS = [("AIO", 30, (3, 3, 1)), ("AEO", 30, (3, 3, 1)), ("NCR", 30, (3, 3, 1)), ("RC", 26, (3, 2, 1)),
        ("RC", 23, (3, 2, 0))]


def replay(k: int, **choices):
    """The agent's move at its (k+1)-th offer, from Table 7's history up to that row."""
    a = AstraAgent(CASINO, ModelClient(MockBackend(exact=True)), np.random.default_rng(0), **choices)
    a.prefs.order, a.questions_asked = ("firewood", "water", "food"), 2  # the two answers of Table 7
    a.read_upto = 10 ** 6  # the words are not under test
    a.my_offers = list(AGENT[:k])
    turns = [t for i in range(k) for t in (("agent", AGENT[i]), ("partner", PARTNER[i]))]
    hist = tuple(Turn(s, "offer", "Here is my proposal.", o, "", 0) for s, o in turns)
    act = a.act(Observation("agent", k + 1, 15, hist, False))
    assert act.kind == "offer"
    return act.hidden["trace"]["tactic"], a.my_offers[-1]


def test_the_partners_offers_score_as_table_7_prints():
    got = [(CASINO.score(CASINO.agent, o, "agent"),
            CASINO.score(CASINO.setup("integrative").partners[0], o, "partner")) for o in PARTNER]
    assert got == [(17, 21), (17, 21), (16, 20), (22, 18)]
    assert [CASINO.score(CASINO.agent, o, "agent") for o in AGENT] == [30, 30, 30, 26, 23]


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_each_row_after_the_opening(k):
    tactic, _, outcome = ROWS[k]
    assert replay(k) == (tactic, outcome)


def test_second_rc_stays_above_the_partners_standing_offer():
    """Row 5: after the partner's 22/18, Table 7's RC offer is 23 (3, 2, 0).  Without the floor at the
    partner's standing offer (astra-agent-v3) RC takes the concession nearest theta_f, 26 - 4 = 22
    (2, 3, 0) -- worth to the agent exactly what the partner's offer on the table gives it."""
    assert replay(4) == ("RC", (3, 2, 0))
    assert replay(4, **V3_CHOICES) == ("RC", (2, 3, 0))
    assert replay(3, **V3_CHOICES) == ("RC", (3, 2, 1))  # v3 gives row 4, not row 5


def test_v2_gives_neither_rc_row():
    assert replay(3, **V2_CHOICES)[1] == (3, 3, 0)  # 27


def test_the_opening_is_not_reproduced():
    """Row 1 (Table 7 "AIO", 30): Table 7's agent makes the first offer (``first_offer="agent"``;
    astra-agent-v4 would invite the partner's); it opens with AEO at 33 (3, 3, 2); no passage gives 30."""
    assert replay(0, first_offer="agent") == ("AEO", (3, 3, 2))
