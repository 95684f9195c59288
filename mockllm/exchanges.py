"""What a role on a backend asked and was answered, as a transcript note.

When ``--role ROLE=BACKEND`` puts astra.tactic, astra.partner, mind.base or
scorable.negotiator on a backend, the role's :class:`~mockllm.client.ModelClient` keeps a
record of each ask (:attr:`~mockllm.client.ModelClient.exchanges`; ``role_client(...,
record=True)``).  After each decision the role drains the record into one *decision note*, which the decision's transcript event carries in
``hidden["model_decisions"]`` (a list: one turn may hold more than one decision):

* ``task``: the task (and role) id;
* ``prompt``: the messages of the first request, ``[[role, content], ...]`` (the repair
  turns are not repeated: :func:`mockllm.client.repair_messages` rebuilds each from the
  prompt, the refused answer and its reason);
* ``asks``: one entry per ask (astra.tactic: the five samples), each with ``answers``
  (every raw answer and the reason the task refused it, ``None`` when taken; or a
  backend ``error``), ``value`` (the parsed value taken, None when none was) and
  ``fallback`` (no answer was taken); an ask whose prompt differs from the note's
  first has its own ``prompt``;
* what the role adds: ``decision`` (what was decided), ``stand_in`` (the stand-in's
  decision, when the role knows it), ``fallback`` (the decision is the stand-in's
  because no answer could be used), and for a vote of samples ``votes`` and ``rule``.

Nothing is recorded for a role played by its stand-in, so those transcripts are as they
were.  The note holds only what the role's requests and the backend's answers hold; a
replay from a cassette gives the same answers, hence the same note.
"""

from __future__ import annotations

from typing import Any, Mapping, Sequence

def recording(client) -> bool:
    """True when ``client`` keeps a record of its asks."""
    return getattr(client, "exchanges", None) is not None


def take(client) -> list:
    """The asks ``client`` recorded since the last take (emptied); [] when it keeps none."""
    got = getattr(client, "exchanges", None)
    if not got:
        return []
    out = list(got)
    got.clear()
    return out


def note(asks: Sequence[Mapping[str, Any]], **extra: Any) -> dict | None:
    """One decision's note from its asks (:func:`take`) and the role's ``extra`` fields;
    None when nothing was asked."""
    if not asks:
        return None
    first = asks[0]["prompt"]
    rows = []
    for a in asks:
        row = {"answers": list(a["answers"]), "value": a["value"], "fallback": bool(a["fallback"])}
        if a["prompt"] != first:
            row["prompt"] = a["prompt"]
        rows.append(row)
    return {"task": str(asks[0]["task"]), "prompt": first, "asks": rows, **extra}


def policy_notes(policy) -> list:
    """The notes of the decision ``policy`` just made through a role client of its own (a
    role wrapper such as :class:`simcore.systems.mind.model_roles.BaseRole` keeps it as ``client``): one
    note, whose ``fallback`` says the stand-in decided (the decision shown is then the
    stand-in's); [] for a policy with no recording client."""
    asks = take(getattr(policy, "client", None))
    if not asks:
        return []
    fell = all(a["fallback"] for a in asks)
    return [note(asks, fallback=fell)]


def summary(n: Mapping[str, Any]) -> str:
    """One line for ``simcore show``: the answers in short, what was decided, and the
    stand-in's decision when it took over or differs."""
    asks = list(n.get("asks") or ())
    if n.get("votes") is not None:  # samples voting (astra.tactic)
        head = f"{len(asks)} samples voted " + ", ".join("-" if v is None else short(v) for v in n["votes"])
        repaired = sum(1 for a in asks if not a.get("fallback") and len(a.get("answers") or ()) > 1)
        fell = sum(1 for a in asks if a.get("fallback"))
        more = ([f"{repaired} repaired"] if repaired else []) + ([f"{fell} fell back"] if fell else [])
        if more:
            head += f" ({', '.join(more)})"
    elif asks:
        a = asks[-1]
        answers = list(a.get("answers") or ())
        if a.get("fallback"):
            last = answers[-1] if answers else {}
            why = f"backend error: {last['error']}" if "error" in last else last.get("refused") or ""
            head = f"{len(answers)} answer(s) refused" + (f" (last: {why})" if why else "")
        else:
            head = f"answered {{{short(a.get('value'))}}}" + (" first try" if len(answers) == 1 else
                                                          f" on try {len(answers)} (repaired)")
    else:
        head = "nothing asked"
    line = f"{n.get('task')}: {head}"
    if n.get("fallback"):
        return line + f" -> the stand-in decided {short(n.get('stand_in', n.get('decision')))}"
    if "decision" in n:
        line += f" -> {short(n['decision'])}"
    if "stand_in" in n and n["stand_in"] != n.get("decision"):
        line += f" (the stand-in: {short(n['stand_in'])})"
    return line


def short(value: Any) -> str:
    """A parsed value in a few words."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {v}" for k, v in value.items() if v is not None) or "-"
    return "-" if value is None else str(value)


__all__ = ["recording", "take", "note", "policy_notes", "summary", "short"]
