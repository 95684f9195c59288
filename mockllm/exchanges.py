"""What a role on a backend asked and was answered, as a transcript note (issue 20).

When ``--role ROLE=BACKEND`` puts a role on a backend, its
:class:`~mockllm.client.ModelClient` keeps a record of each ask
(:attr:`~mockllm.client.ModelClient.exchanges`).  After each decision the role drains
the record into one *decision note*, which the decision's transcript event carries in
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

#: the key of the notes in an event's ``hidden``
KEY = "model_decisions"


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
    role wrapper such as :class:`mockllm.roles_mind.BaseRole` keeps it as ``client``): one
    note, whose ``fallback`` says the stand-in decided (the decision shown is then the
    stand-in's); [] for a policy with no recording client."""
    asks = take(getattr(policy, "client", None))
    if not asks:
        return []
    fell = all(a["fallback"] for a in asks)
    return [note(asks, fallback=fell)]


def summary(n: Mapping[str, Any]) -> str:
    """One line for ``simcore show``: the task, each ask's answers in short, what was
    decided, and the stand-in's decision when it differs or took over."""
    parts = []
    for a in n.get("asks") or ():
        took = a.get("value")
        tries = len(a.get("answers") or ())
        errors = sum(1 for x in a.get("answers") or () if "error" in x)
        if a.get("fallback"):
            what = "fell back" + (f" after {tries} answer(s)" if tries else "")
            if errors:
                what += f" ({errors} backend error(s))"
        else:
            what = short(took) + (f" (repaired, try {tries})" if tries > 1 else "")
        parts.append(what)
    line = f"{n.get('task')}: " + ("; ".join(parts) if len(parts) <= 1 else
                                   f"{len(parts)} samples: " + "; ".join(parts))
    if "decision" in n:
        line += f" -> {short(n['decision'])}"
    if n.get("fallback"):
        line += " -- the stand-in decided" + (f" ({short(n['stand_in'])})" if "stand_in" in n else "")
    elif "stand_in" in n and n["stand_in"] != n.get("decision"):
        line += f" (the stand-in: {short(n['stand_in'])})"
    return line


def short(value: Any) -> str:
    """A parsed value in a few words."""
    if isinstance(value, Mapping):
        return ", ".join(f"{k}: {v}" for k, v in value.items() if v is not None) or "-"
    return "-" if value is None else str(value)


__all__ = ["KEY", "recording", "take", "note", "policy_notes", "summary", "short"]
