"""The policy each variant of the MIND study plays: a study name (``mind``), a registered id
(``mind-v1``) or a user's ``package.module:Class``; the config's policy overrides applied
(``--grid agree_max_w=3,4,5``); the Base policy wrapped to ask a backend when ``--role
mind.base=...`` puts the role on one; the judge's role client; and which two variants the
Table 4 judge compares."""

from __future__ import annotations

from typing import Any

import attrs

from policies.mad import MadPolicy
from simcore.argcheck import _policy_object, load_ref
from simcore.registry import make
from simcore.role_backends import role_client
from simcore.seeding import generator
from simcore.systems.mind.agents import POLICY_METHODS
from simcore.systems.mind.model_roles import JUDGE_TEMPERATURE, TEMPERATURE, BaseRole
from simcore.systems.mind.registry import SYSTEM, VARIANTS

#: the config's fields that override a policy parameter of the same name (None: the registered value)
POLICY_OVERRIDES = ("agree_max_w", "push_margin", "yield_rule", "push_rule", "block_min_w", "signal_min_w", "no_cue_guess",
                    "accept_own_offer", "flexible_middle", "update_min_voiced", "middle_towards_own",
                    "middle_towards_dissent", "keep_counts_proposer", "dissent_value",
                    "plain_wording", "warm_stance", "reasons", "proposer_keeps_at_w")


def variant_id(variant: str) -> str:
    """The registry id a variant names: a study name (``mind``) or an id (``mind-v1``)."""
    return VARIANTS.get(variant, variant)


def variant_object(variant: str) -> Any:
    """The policy a variant names: a registered one, or a user's ``package.module:Attr``: an
    agent with ``act(observation)`` (a class is built once per member, as
    :func:`~simcore.systems.mind.match.start` seats it), or a policy with the structured
    interface (a class built once, with no arguments)."""
    if ":" in variant:
        obj = load_ref(variant, "--variants")
        if callable(getattr(obj, "act", None)):
            return obj
        return _policy_object(obj() if isinstance(obj, type) else obj, "--variants", SYSTEM, POLICY_METHODS)
    return make("policy", variant_id(variant))


def variant_policy(config: Any, variant: str) -> Any:
    """The variant's policy with the config's policy overrides applied (each only to
    policies that have that parameter)."""
    policy = variant_object(variant)
    if not attrs.has(type(policy)):
        return policy
    names = {f.name for f in attrs.fields(type(policy))}
    over = {k: getattr(config, k) for k in POLICY_OVERRIDES if getattr(config, k) is not None and k in names}
    return attrs.evolve(policy, **over) if over else policy


def judge_pair(config: Any) -> tuple[str, str] | None:
    """The two variants the Table 4 judge compares: the first MIND variant (policy name
    "mind") as plan A and the first Base variant as plan B; None without both."""
    names = {v: getattr(variant_object(v), "name", None) for v in config.variants}
    a = next((v for v in config.variants if names[v] == "mind"), None)
    b = next((v for v in config.variants if names[v] == "base"), None)
    return None if a is None or b is None else (a, b)


def base_role(config: Any, policy: Any, backend: Any, s: int, g: int, variant: str):
    """``(policy, role client)``: a Base (MAD) policy wrapped to ask its votes and updates of
    a backend when ``--role mind.base=...`` puts the role on one (its calls seeded from their
    own generator); else ``(policy, None)``.  The client's counts are read after the run."""
    client = role_client(config.roles, "mind.base", backend, temperature=TEMPERATURE, record=True)
    if client is None or not isinstance(policy, MadPolicy):
        return policy, None
    return BaseRole(policy, client, generator(config.seed, SYSTEM, s, g, variant, "role", "mind.base")), client


def judge_role(config: Any, backend: Any):
    """The client of ``--role mind.judge=BACKEND`` (its counts read after the verdict), or None."""
    return role_client(config.roles, "mind.judge", backend, temperature=JUDGE_TEMPERATURE)
