"""The ASTRA study's parameters: every agent and partner parameter with its default (the
registry entries' kwargs) and the parsers for ``--agent-param``, ``--partner-param`` and
``--grid agent_params=... / partner_params=...``.

The values below equal ``policies.astra.AgentParams().flat()`` (v4), the same with
``policies.astra.V3_CHOICES`` (v3), ``policies.astra.V2_CHOICES`` (v2) and ``policies.astra.V1_CHOICES`` (v1) and ``policies.partners.PARTNER_PARAMS``; they are written
out so that the registry lists them as data (tests check they agree with the policies).
"""

from __future__ import annotations

import click

from policies.astra import AgentParams

# Every parameter of the ASTRA agent with its default (policies.astra.AgentParams.flat(); the
# rule tables in docs/systems/astra.md give each one's passage or say why it is a choice).
AGENT_V4_KWARGS = {
    "alpha": 0.35, "beta": 0.65, "w": 0.75, "top_n": 5, "window": 0.3, "bound_span": 10, "solver": "exact",
    "questions": 2, "clarify": 1, "accept_rule": "paper", "accept_tolerance_step": 0.0,
    "no_concession_turns": 3, "below_batna_offers": 2, "deadline_rounds_left": (1,),
    "si_target": "partner", "smax_rule": "tft", "smax_share": 0.5,
    "extreme_share": 0.25, "early_offers": 3, "lic_offers": 6, "significant": 1.0, "large": 3.0,
    "hold_against_fair": True, "order": ("AEO", "RNC", "CSC", "NCR", "RC", "REO", "LIC", "MGF", "LGR"),
    "reo_scope": "any", "stance_first": True, "first_offer_stance": "neutral", "lic_needs_fair": False,
    "concession_how": "strict",
    "lambda_table": (("greedy", 0.9, 0.9, 0.9), ("neutral", 0.5, 0.5, 0.5), ("generous", 0.3, 0.3, 0.3),
                     ("unknown", 0.6, 0.7, 0.7)),
    "selection": "tft", "rc_target": "theta-f", "csc_how": "concede", "ncr_needs_two": True,
    "rc_floor": "partner-offer", "first_offer": "partner",
}
# astra-agent-v3: the agent makes the first offer; RC ranks without the partner's standing offer as a floor -- policies.astra.V3_CHOICES
AGENT_V3_KWARGS = {**AGENT_V4_KWARGS, "rc_floor": "none", "first_offer": "agent"}
# astra-agent-v2: stage 3 as a fixed precedence of tactics, RC toward the partner's concession, CSC by
# distance only -- policies.astra.V2_CHOICES
AGENT_V2_KWARGS = {**AGENT_V3_KWARGS, "selection": "precedence", "rc_target": "partner", "csc_how": "distance",
                   "ncr_needs_two": False}
AGENT_V1_KWARGS = {**AGENT_V2_KWARGS, "deadline_rounds_left": (1, 2), "si_target": "agent", "smax_rule": "hold",
                   "hold_against_fair": False, "stance_first": False,
                   "order": ("REO", "AEO", "RNC", "CSC", "NCR", "RC", "LIC", "MGF", "LGR"),
                   "first_offer_stance": "unknown", "lic_needs_fair": True, "concession_how": "distance",
                   "significant": 2.0,
                   "lambda_table": (("greedy", 0.8, 0.9, 0.9), ("neutral", 0.5, 0.6, 0.5),
                                    ("generous", 0.3, 0.4, 0.3), ("unknown", 0.6, 0.7, 0.7))}
NO_ASTRA_EXTRA = {"step": 2.0, "floor_share": 0.5}  # the fixed concession heuristic (a choice)
# The partners' rules (policies.partners.PARTNER_PARAMS): simcore's stand-ins for the paper's
# GPT-4o partners, every value a choice.
_P = {"open_share": 0.85, "step": 1.0, "concede_every": 2, "floor_share": 0.5, "deadline_share": None,
      "repeat_limit": None, "one_sided_share": 0.75, "fixed": False, "accept_slack": 0.0, "exponent": None,
      "mention": True}
# the stand-ins for Table 1's GPT-4o "Partner-Base" (the astra.partner role's family): the values of
# policies.partners.PARTNER_PARAMS (its module docstring gives each one's evidence)
PARTNER_KWARGS = {
    "base": {**_P, "repeat_limit": 2},
    "base-transcripts": {**_P, "open_share": 20 / 36, "concede_every": 1, "floor_share": 15 / 36},
    "base-firm": {**_P, "open_share": 26 / 36, "floor_share": 18 / 36},
    "base-human": {**_P, "open_share": 23 / 36, "concede_every": 1, "floor_share": 16 / 36},
    "base-soft": {**_P, "open_share": 0.5, "concede_every": 1, "floor_share": 14 / 36},
    "greedy": {**_P, "open_share": 1.0, "concede_every": 3, "floor_share": 0.75, "deadline_share": 0.6},
    "fair": {**_P, "open_share": 0.5, "step": 0.0, "fixed": True, "accept_slack": 1.0},
    "boulware": {**_P, "open_share": 1.0, "exponent": 4.0, "mention": False},
    "conceder": {**_P, "open_share": 1.0, "exponent": 0.25, "mention": False},
}

_PARTNER_TYPES = {"open_share": float, "step": float, "concede_every": int, "floor_share": float,
                  "deadline_share": float, "repeat_limit": int, "one_sided_share": float, "fixed": bool,
                  "accept_slack": float, "exponent": float, "mention": bool}


def parse_partner_param(name: str, raw: str):
    """One partner parameter from text (``none`` for the optional ones)."""
    if name not in _PARTNER_TYPES:
        raise ValueError(f"unknown partner parameter {name!r}; valid: {', '.join(_PARTNER_TYPES)}")
    if raw.lower() == "none" and name in ("deadline_share", "repeat_limit", "exponent"):
        return None
    tp = _PARTNER_TYPES[name]
    if tp is bool:
        if raw.lower() not in ("true", "false", "1", "0"):
            raise ValueError(f"{name}: expected true or false, got {raw!r}")
        return raw.lower() in ("true", "1")
    return tp(raw)


def parse_partner_params_text(text: str) -> tuple:
    """``--grid partner_params=...`` values: ``name:value[;name:value]`` or ``default``."""
    text = text.strip()
    if text in ("", "default"):
        return ()
    out = {}
    for item in text.split(";"):
        name, sep, raw = item.partition(":")
        if not sep:
            raise ValueError(f"partner_params: expected name:value, got {item!r}")
        out[name.strip()] = parse_partner_param(name.strip(), raw.strip())
    return tuple(sorted(out.items()))


def _check_partner_params(value):
    for name, v in value:
        if name not in _PARTNER_TYPES:
            raise ValueError(f"unknown partner parameter {name!r}; valid: {', '.join(_PARTNER_TYPES)}")


def _check_agent_params(_inst, _attr, value):
    AgentParams.build(**dict(value))  # raises naming the bad parameter or value


def parse_agent_param(name: str, raw: str):
    """One agent parameter from text, typed by its default (bool, int, float, str, tuple;
    tuple items separated by ``,`` or ``+``; lambda_table rows ``stance:fair:unfair:unknown``)."""
    defaults = AgentParams().flat()
    if name not in defaults:
        raise ValueError(f"unknown agent parameter {name!r}; valid: {', '.join(defaults)}")
    d = defaults[name]
    if isinstance(d, bool):
        if raw.lower() not in ("true", "false", "1", "0"):
            raise ValueError(f"{name}: expected true or false, got {raw!r}")
        v = raw.lower() in ("true", "1")
    elif isinstance(d, tuple):
        parts = [x.strip() for x in raw.replace("+", ",").split(",") if x.strip()]
        if d and isinstance(d[0], tuple):  # lambda_table
            v = tuple((r[0], *(float(x) for x in r[1:])) for r in (p.split(":") for p in parts))
            if sorted(r[0] for r in v) != sorted(r[0] for r in d) or any(len(r) != 4 for r in v):
                raise ValueError("lambda_table: expected stance:fair:unfair:unknown for each of "
                                 + ", ".join(r[0] for r in d))
        else:
            v = tuple(int(x) for x in parts) if d and isinstance(d[0], int) else tuple(parts)
    else:
        v = type(d)(raw)
    AgentParams.build(**{name: v})  # validators name a bad value
    return v


def parse_agent_params_text(text: str) -> tuple:
    """``--grid agent_params=...`` values: ``name:value[;name:value]`` or ``default`` (none)."""
    out = {}
    text = text.strip()
    if text in ("", "default"):
        return ()
    for item in text.split(";"):
        name, sep, raw = item.partition(":")
        if not sep:
            raise ValueError(f"agent_params: expected name:value, got {item!r}")
        out[name.strip()] = parse_agent_param(name.strip(), raw.strip())
    return tuple(sorted(out.items()))


def _name_value_options(parse):
    """A click callback reading repeated ``NAME=VALUE`` options with ``parse(name, text)``
    into sorted ``(name, value)`` pairs; a bad one is click's one-line usage error."""
    def callback(_ctx, param, values) -> tuple:
        out = {}
        for item in values:
            name, eq, raw = item.partition("=")
            if not eq:
                raise click.BadParameter(f"{item!r}: expected NAME=VALUE", param=param)
            try:
                out[name.strip()] = parse(name.strip(), raw.strip())
            except (TypeError, ValueError) as exc:
                raise click.BadParameter(f"{item!r}: {exc}", param=param) from None
        return tuple(sorted(out.items()))
    return callback


_parse_partner_params = _name_value_options(parse_partner_param)
_parse_agent_params = _name_value_options(parse_agent_param)
