"""Registry versions of the travel policies' wording: ``base-v1`` and
``appraisal-only-v1`` speak the first mock's fixed plain phrase per act, so their
transcripts are those made before the varied wording (commit 9885e4f); ``base-v2``
and ``appraisal-only-v2`` vary their plain phrasing."""

from __future__ import annotations

import hashlib
import json

from mockllm.travel import PLAIN, PLAIN_FIXED, SPEAK, read
from simcore.registry import make, resolve as spec
from simcore.systems.mind import STUDY, VARIANTS, MindConfig

#: sha256 of the texts of group s0-g1 (seed 0, 30-group study), one line per message, as
#: commit 9885e4f wrote them (``simcore run mind --groups 30``, transcripts.jsonl)
OLD = {"base": "227c3e078ac79b1aca8088ca2d28a1edd0603a0fb925508f2918bed659b7a5d8",
       "appraisal-only": "b4882776973986a6ef91fbce4d37142db075b55e8124600d0860fd40dde2aaa9"}


def _texts(policy_id: str, variant: str, s: int = 0, g: int = 1) -> list[str]:
    """One group's messages, made exactly as the study's job makes them."""
    from mockllm.client import ModelClient
    from simcore.backends import build_backend
    from simcore.systems.mind.match import play_group
    from simcore.seeding import generator

    config = MindConfig(groups=30)
    group = STUDY.group(config, s, g)
    pick = generator(config.seed, "mind", s, g, "proposer")
    proposers = [int(pick.integers(group.size)) for _ in group.items]
    backend = build_backend(config.backend, config.backend_args, mock_options={"tone_noise": config.tone_noise})
    out = play_group(group, make("policy", policy_id), proposers, ModelClient(backend),
                          generator(config.seed, "mind", s, g, variant), f"mind/s{s}/g{g}/{variant}")
    return [e.text for e in out.events if e.text]


def test_v1_ids_reproduce_the_transcripts_made_before_the_varied_wording():
    for variant, digest in OLD.items():
        texts = _texts(f"{variant}-v1", variant)
        assert hashlib.sha256("\n".join(texts).encode()).hexdigest() == digest, variant


def test_v2_ids_vary_their_plain_wording_and_the_study_uses_them():
    assert VARIANTS["base"] == "base-v3" and VARIANTS["appraisal-only"] == "appraisal-only-v2"
    texts = [t for v in ("base", "appraisal-only") for t in _texts(f"{v}-v2", v)]
    fixed = set(PLAIN_FIXED.values())
    said = {p for t in texts for p in PLAIN["agree"] + PLAIN["disagree"] + PLAIN["update"] if f'{p} "' in t}
    assert said - fixed, "v2 speaks only the fixed phrases"
    assert all(read(t.split("\n")[1][2:] if "\n" in t else t).willingness is None for t in texts)
    assert spec("policy", "base-v1").kwargs["plain_wording"] == "fixed"
    assert spec("policy", "base-v2").kwargs["plain_wording"] == "varied"


def test_fixed_wording_sends_the_first_prompt_unchanged():
    """base-v1's prompt carries no plain_wording field, so a cassette recorded before the
    field existed still answers it; v2's prompt asks for varied wording."""
    ctx = dict(act="agree", item="price", value="Budget", willingness=None, reason="indifferent")
    old = json.loads(SPEAK.messages(**ctx)[1].content.split("\n")[1])
    assert list(old) == ["act", "item", "value", "willingness", "reason"]
    assert SPEAK.messages(**ctx, plain_wording=None) == SPEAK.messages(**ctx)
    new = json.loads(SPEAK.messages(**ctx, plain_wording="varied")[1].content.split("\n")[1])
    assert new["plain_wording"] == "varied"
