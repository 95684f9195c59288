"""The buy-sell game's renderings: a game step by step (``simcore show``) and the golden playthroughs."""

from __future__ import annotations

from mockllm.mock import MockBackend
from simcore.protocols.buysell import Scenario
from simcore.seeding import derive
from simcore.systems.buysell.match import start
from simcore.systems.buysell.registry import NAMES, SYSTEM


def render_run(events) -> str:
    events = list(events)
    lines = [f"== {events[0].run} =="] if events else []
    for e in events:
        tag = f"t{e.round:>2} {e.speaker:<7}"
        if e.phase == "end":
            h = e.hidden
            lines.append(f"{tag} {e.text} seller {h.get('seller_payoff')}, buyer {h.get('buyer_payoff')} "
                         f"(cost {h.get('cost')}, willingness {h.get('value')})")
        elif e.phase == "invalid":
            lines.append(f"{tag} {e.text}")
        else:
            price = e.intent.get("price")
            lines.append(f"{tag} {e.intent.get('answer')}{'' if price is None else f' {price}'} | {e.text}")
            if e.intent.get("why"):
                lines.append(f"{'':11}[decision] {e.intent['why']} (read {e.hidden.get('read')})")
    return "\n".join(lines)


def _playthrough(seller: str, buyer: str, cost: int = 40, value: int = 60, seed: int = 7) -> str:
    run_id = f"{SYSTEM}/playthrough/{seller}/{buyer}/{cost}-{value}"
    seq = derive(seed, SYSTEM, "playthrough", seller, buyer)
    ep, _ = start(Scenario(cost, value), seq, seller=NAMES["seller"][seller], buyer=NAMES["buyer"][buyer],
                  run_id=run_id, backend=MockBackend(exact=True)).run()
    return render_run(ep.events) + "\n"


PLAYTHROUGHS = {
    "gpt-4-vs-gpt-4": lambda: _playthrough("gpt-4", "gpt-4"),
    "claude-2.1-vs-gpt-4": lambda: _playthrough("claude-2.1", "gpt-4"),
    "gpt-3.5-vs-gpt-4-tough-no-zone": lambda: _playthrough("gpt-3.5", "gpt-4-tough", cost=60, value=40),
}
