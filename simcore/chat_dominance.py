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

The person sits in the user's seat of the dialogue game as a *text* seat
(:class:`Terminal`: it answers words; its seat's reader reads them into the move, with the
agent's voice generator, as the agent will read them), set up by
:func:`simcore.systems.dominance.match.start` and played by the one driver like every
dialogue.  The agent's words are read for the person by the mock's reader in-process (a
person needs no model to read them; :class:`~policies.dominance.DirectReader`).
"""

from __future__ import annotations

import sys
from typing import Any, Callable

import click

from mockllm.mock import MockBackend
from policies.dominance import DirectReader
from policies.dominance_state import RELATIONS, random_preferences
from scenarios.restaurants import load_domain
from simcore import seeding
from simcore.protocols.dialogue import Propose, Say, Unreadable
from simcore.systems.dominance.match import start
from simcore.textsafe import visible

#: the longest line the chat reads (characters); a longer one is refused with one line and
#: does not use a turn
MAX_LINE = 1_000

GREETINGS = ("hi", "hello", "hey", "good morning", "good evening", "thanks", "thank you")

EXAMPLES = ["I'd rather have Italian than Chinese", "Italian is my favourite", "what cuisine do you like?",
            "how about cheap?", "let's go to <restaurant>", "ok / no (about the last proposal)",
            "book a table at <restaurant>", "bye"]


class Closed(BaseException):
    """The person left (``quit``) or the input ended: the dialogue stops where it is.  (Not an
    ``Exception``: the driver passes it on, as it passes an interrupt.)"""

    def __init__(self, left: bool):
        super().__init__("left" if left else "end of input")
        self.left = left


class Terminal:
    """The person at the terminal, in the user's seat: each move is a line typed (or piped);
    commands and greetings are answered here without using a turn.  A line the seat's reader
    cannot read, or reads as a move not legal now, comes back through :meth:`refused` and the
    person types again.  The person reads the agent's words on the screen; the reading recorded
    for them is the in-process reader's (``read``)."""

    relation = "peer"

    def __init__(self, domain, echo: Callable[[str], None], agent_ranking: Callable[[str], tuple],
                 lines: Any = None, interactive: bool = False):
        self.domain, self.echo, self.agent_ranking = domain, echo, agent_ranking
        self.lines, self.interactive = lines, interactive
        self.reader = DirectReader(domain)
        self.my_last_proposal = None

    def act(self, observation) -> Any:
        if observation.step == "read":
            last = [u for u in observation.mine if isinstance(u, Propose)]
            self.my_last_proposal = last[-1].proposal if last else None
            return self.reader.read(self, observation.text)
        dom, echo = self.domain, self.echo
        for raw in self.lines:
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
                raise Closed(left=True)
            if low == "help":
                echo("I understand, for example: " + "; ".join(EXAMPLES))
                continue
            if low == "list":
                for o in dom.options:
                    echo(f"  {o.name}: {dom.describe_option(o)}")
                continue
            if low == "prefs":
                for c in dom.criteria:
                    echo(f"  agent's {c.name}, best first: {', '.join(self.agent_ranking(c.name))}")
                continue
            if not self.interactive:
                echo(f"you: {line}")
            return line
        raise Closed(left=False)

    def refused(self, words: str, reading: Any, why: str) -> None:
        if isinstance(reading, Unreadable):
            self.echo(f"  (I could not read that: {reading.why})")
        else:
            self.echo(f"  (not allowed: {why.split(': ', 1)[-1]})")


class Shown:
    """The agent's seat, its moves shown as they are made: the words and the rule that chose them."""

    def __init__(self, agent, echo: Callable[[str], None]):
        self.agent, self.echo = agent, echo
        self.label = type(agent).__name__

    def act(self, observation) -> Any:
        action = self.agent.act(observation)
        if isinstance(action, Say) and action.text is not None:
            dec = action.decision
            self.echo(f"agent: {action.text}")
            self.echo(f"  [{dec.figure} / {dec.rule}] {dec.why}".rstrip())
        return action


def _lines(interactive: bool):
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
    dom = load_domain(domain)
    seq = seeding.derive(seed, "dominance", "chat", relation)
    prefs = random_preferences(dom, seeding.child(seq, "prefs"))
    voice_rng = seeding.child(seq, "voice")  # one generator: the agent's words and the reading of yours

    def echo(text: str = "") -> None:  # model and typed text is not trusted: controls shown escaped
        click.echo(visible(text))

    interactive = sys.stdin.isatty()
    person = Terminal(dom, echo, lambda c: agent._ranking[c], _lines(interactive), interactive)
    match = start(dom, {"agent": relation, "user": person}, prefs={"agent": prefs}, rngs={"agent": voice_rng,
                  "user": voice_rng}, first="agent" if agent_opens else "user", run_id="dominance/chat",
                  max_turns=max_turns, backend=MockBackend(exact=True))
    agent = match.agents["agent"]
    match.agents["agent"] = Shown(agent, echo)
    echo(f"You are choosing a {dom.topic} with a {relation} agent ({dom.id}, {len(dom.options)} options).")
    for c in dom.criteria:
        echo(f"  {c.name}: {', '.join(c.values)}")
    echo("Type 'help' for the forms I understand, 'list' for the restaurants, 'quit' to stop.")
    try:
        result, _agents, _stats = match.run()
    except Closed as closed:
        if closed.left:
            return
        echo("(end of input)")
        _reveal(echo, agent, dom, None)
        return
    if result.outcome == "booked":
        echo(f"(booked: {result.booked})")
    elif result.outcome == "turn-limit":
        echo(f"(turn limit of {max_turns} reached: no agreement)")
        return
    elif result.outcome == "unreadable":
        echo("(the negotiation ended: the agent could not use what it read)")
    else:
        echo("(the negotiation ended without agreement)")
    _reveal(echo, agent, dom, result.booked)


def _reveal(echo, agent, dom, booked) -> None:
    """The agent's hidden preferences and, after a booking, the booked option's score for it."""
    echo("the agent's hidden preferences (best first):")
    for c in dom.criteria:
        echo(f"  {c.name}: {', '.join(agent._ranking[c.name])}")
    if booked is not None and booked in agent.judge.utility:
        rank = agent.judge.order.index(booked) + 1
        echo(f"  {booked} scores {agent.judge.normalised(booked):.2f} for the agent (0 = its worst option, "
             f"1 = its best; {rank} of {len(agent.judge.order)})")
