"""``simcore chat dominance``: negotiate a restaurant with the dominance agent in the terminal.

Lines are read from standard input (so a dialogue can be piped through it).  Each
line is read by the language layer into an utterance; a line it cannot read is
explained and does not use a turn; an illegal move (accepting something never
proposed, booking a restaurant nobody proposed) is refused the same way.  After each
reply the agent's figure and branch are shown.  Commands: ``help``, ``list``
(restaurants), ``prefs`` (reveal the agent's preferences), ``quit``.  A greeting ("hi",
"hello", "thanks") is answered without using a turn.  A line longer than :data:`MAX_LINE`
characters is refused in one line (it is not kept, not read, and uses no turn).

On a terminal each line is asked for with a ``you> `` prompt (and not echoed again); piped,
each line read is echoed as ``you: ...`` so the transcript reads as a dialogue.  At the end
the agent's hidden preferences are shown, with how good the booked restaurant is for it
(0 = its worst option, 1 = its best).
"""

from __future__ import annotations

import sys

import click

from policies.dominance import DominanceAgent, Voice
from policies.dominance_state import RELATIONS, random_preferences
from simcore import seeding
from simcore.textsafe import visible
from simcore.errors import IllegalMove
from simcore.protocols.dialogue import (CLOSING, Booking, PublicRecord, Propose, Unreadable, check_decision,
                                       check_legal)

#: the longest line the chat reads (characters); a longer one is refused with one line and
#: does not use a turn
MAX_LINE = 1_000

GREETINGS = ("hi", "hello", "hey", "good morning", "good evening", "thanks", "thank you")

EXAMPLES = ["I'd rather have Italian than Chinese", "Italian is my favourite", "what cuisine do you like?",
            "how about cheap?", "let's go to <restaurant>", "ok / no (about the last proposal)",
            "book a table at <restaurant>", "bye"]


class _Person:
    """The human side, for the reader's bare yes/no."""

    name, relation = "user", "peer"

    def __init__(self):
        self.their_last_proposal = None
        self.my_last_proposal = None


@click.command(name="dominance")
@click.option("--relation", type=click.Choice(RELATIONS), default="peer", show_default=True,
              help="The agent's relation of dominance with you.")
@click.option("--domain", default="restaurants-small-v1", show_default=True,
              help="A shipped domain id or a domain JSON file.")
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=0, show_default=True,
              help="Seed of the agent's (hidden) preferences and phrasing.")
@click.option("--max-turns", type=click.IntRange(2, 1000), default=40, show_default=True)
@click.option("--agent-opens/--user-opens", default=False, show_default=True,
              help="Who speaks first.")
def command(relation, domain, seed, max_turns, agent_opens):
    """Negotiate where to eat with a dominant, peer or submissive agent (reads standard input,
    lines of at most 1,000 characters; on a terminal it prompts with 'you> ')."""
    from mockllm.client import ModelClient
    from mockllm.mock import MockBackend
    from scenarios.restaurants import load_domain

    dom = load_domain(domain)
    seq = seeding.derive(seed, "dominance", "chat", relation)
    agent = DominanceAgent("agent", relation, dom, random_preferences(dom, seeding.child(seq, "prefs")))
    client = ModelClient(MockBackend(exact=True))
    voice = Voice(dom, client, seeding.child(seq, "voice"))
    agent._speak, agent._read = voice.speak, voice.read
    person = _Person()
    record = PublicRecord()
    def echo(text: str = "") -> None:  # model and typed text is not trusted: controls shown escaped
        click.echo(visible(text))
    echo(f"You are choosing a {dom.topic} with a {relation} agent ({dom.id}, {len(dom.options)} options).")
    for c in dom.criteria:
        echo(f"  {c.name}: {', '.join(c.values)}")
    echo("Type 'help' for the forms I understand, 'list' for the restaurants, 'quit' to stop.")
    turns = 0

    def agent_says(heard):
        nonlocal turns
        dec = agent.decide(heard)
        check_decision(dom, record, agent, dec)
        text = agent.speak(dec.utterance)
        agent.commit(dec.utterance)
        record.add("agent", dec.utterance)
        if isinstance(dec.utterance, Propose):
            person.their_last_proposal = dec.utterance.proposal
        turns += 1
        echo(f"agent: {text}")
        echo(f"  [{dec.figure} / {dec.rule}] {dec.why}".rstrip())
        return dec.utterance

    interactive = sys.stdin.isatty()

    def lines():
        """Each line typed or piped in; a line longer than MAX_LINE as its length (an int),
        read to its end in pieces without keeping it."""
        while True:
            if interactive:
                try:
                    raw = input("you> ")
                except EOFError:
                    return
                yield raw if len(raw) <= MAX_LINE else len(raw)
                continue
            raw = sys.stdin.readline(MAX_LINE + 2)
            if not raw:
                return
            if len(raw.rstrip("\r\n")) <= MAX_LINE:
                yield raw
                continue
            size = len(raw)
            while not raw.endswith("\n"):
                raw = sys.stdin.readline(1 << 16)
                if not raw:
                    break
                size += len(raw)
            yield size - len(raw) + len(raw.rstrip("\r\n"))

    last = agent_says(None) if agent_opens else None
    for raw in lines():
        if last is not None and last.kind in CLOSING:
            break
        if isinstance(raw, int):
            echo(f"  (a line of {raw} characters is too long: I read lines of at most {MAX_LINE})")
            continue
        line = raw.strip()
        if not line:
            continue
        low = line.lower()
        if low.rstrip("!.,") in GREETINGS:
            echo(f"agent: {'Hello' if not low.startswith('thank') else 'You are welcome'}! Let's choose a "
                 f"{dom.topic}. ('help' lists what I understand.)")
            continue
        if low in ("quit", "exit"):
            echo("(you left the negotiation)")
            return
        if low == "help":
            echo("I understand, for example: " + "; ".join(EXAMPLES))
            continue
        if low == "list":
            for o in dom.options:
                echo(f"  {o.name}: {dom.describe_option(o)}")
            continue
        if low == "prefs":
            for c in dom.criteria:
                echo(f"  agent's {c.name}, best first: {', '.join(agent._ranking[c.name])}")
            continue
        if not interactive:
            echo(f"you: {line}")
        reading = voice.read(person, line, own=True)
        if isinstance(reading, Unreadable):
            echo(f"  (I could not read that: {reading.why})")
            continue
        try:
            check_legal(dom, record, "user", reading)
        except IllegalMove as exc:
            echo(f"  (not allowed: {str(exc).split(': ', 1)[-1]})")
            continue
        record.add("user", reading)
        turns += 1
        if isinstance(reading, Propose):
            person.my_last_proposal = reading.proposal
        heard = agent.hear(line)
        if isinstance(heard, Unreadable):  # cannot happen: same reader, same text
            echo(f"  (the agent could not read that: {heard.why})")
            continue
        if reading.kind in CLOSING:
            last = reading
            break
        last = agent_says(heard)
        if turns >= max_turns and last.kind not in CLOSING:
            echo(f"(turn limit of {max_turns} reached: no agreement)")
            return
    if last is not None and isinstance(last, Booking):
        echo(f"(booked: {last.option})")
    elif last is not None and last.kind == "quit":
        echo("(the negotiation ended without agreement)")
    else:
        echo("(end of input)")
    _reveal(echo, agent, dom, last.option if isinstance(last, Booking) else None)


def _reveal(echo, agent, dom, booked) -> None:
    """The agent's hidden preferences and, after a booking, the booked option's score for it."""
    echo("the agent's hidden preferences (best first):")
    for c in dom.criteria:
        echo(f"  {c.name}: {', '.join(agent._ranking[c.name])}")
    if booked is not None and booked in agent.judge.utility:
        rank = agent.judge.order.index(booked) + 1
        echo(f"  {booked} scores {agent.judge.normalised(booked):.2f} for the agent (0 = its worst option, "
             f"1 = its best; {rank} of {len(agent.judge.order)})")
