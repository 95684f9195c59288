"""The report's sample of step-throughs: every part of a kind (agent, partner, setup) appears
within the limit, and negotiations with injected noise are shown in the share they occur."""

from simcore.report.steps import RULE, Sampler


def _kind(rid):
    return rid.rsplit("/", 1)[0]


def _read(sampler, ids):
    return [r for r in ids if sampler(r)]


def test_every_partner_appears_within_the_limit():
    ids = [f"{k}/{i}" for k in ("a1/boulware", "a1/conceder", "a2/boulware", "a2/conceder", "a1/linear",
                                "a2/linear", "a1/tft") for i in range(3)]
    s = Sampler(_kind, 5, per_kind=2)
    got = {r: ["turn", "result"] for r in _read(s, ids)}
    shown = s.pick(got, lambda ev: True)
    partners = {r.split("/")[1] for r in shown}
    assert partners == {"boulware", "conceder", "linear", "tft"}
    assert len(shown) == 5


def test_noisy_negotiations_are_shown_in_proportion():
    # 8 kinds, 4 candidates each; one candidate in four is noisy (the last of each kind)
    ids = [f"a/p{k}/{i}" for k in range(8) for i in range(4)]
    s = Sampler(_kind, 8, per_kind=4)
    got = {r: ["turn", "noise" if r.endswith("/3") else "clean"] for r in _read(s, ids)}
    shown = s.pick(got, lambda ev: "noise" not in ev)
    assert s.noisy_share == 0.25
    noisy = [r for r, ev in shown.items() if "noise" in ev]
    assert len(noisy) == 2 and len(shown) == 8
    # deterministic: the same pick again
    s2 = Sampler(_kind, 8, per_kind=4)
    assert list(s2.pick({r: got[r] for r in _read(s2, ids)}, lambda ev: "noise" not in ev)) == list(shown)


def test_the_rule_is_printed_with_its_numbers():
    text = RULE.format(per_kind=5, limit=8, share="24%")
    assert "first 5" in text and "at most 8" in text and "24%" in text
