"""Buy-sell language tasks: say a decided move in the game's format, read the other player's turn.

``buysell.speak``  a move (PROPOSAL at a price, ACCEPT, REJECT) -> an answer in the three tags of
                   NegotiationArena's buy-sell format (``<player answer>``, ``<newly proposed
                   trade>``, ``<message>``: ``games/buy_sell_game/prompt.py:14-45`` of the paper's
                   code), read back as ``(answer, price as the trade states it, message)``.
``buysell.read``   the other player's turn as the game passes it on (``<other player message>``,
                   ``<other player answer>``, ``<other player proposed trade>``:
                   ``games/buy_sell_game/interface.py:15-25``) -> ``{"answer", "price"}``.

The checks refuse an answer that makes another move than the one decided, names another object
or money, trades more than the one object, or states no whole price; whether the price is within
the buyer's money is the game's check.  Mock noise (choices; ``MockBackend(exact=True)`` zeroes
them), each an error the checks cannot see:

* ``buysell_price_slip`` (0.02): the trade states a price one ZUP off the decided one (what the
  words state is what the game takes);
* ``buysell_misread`` (0.02): the reader reports a price 1 to 5 ZUP off the one proposed.
"""

from __future__ import annotations

import json
import re
from typing import Any, Mapping

from mockllm import checks, schema
from mockllm.tasks import Task, register_task
from simcore.errors import ParseError
from simcore.protocols.buysell import ANSWERS, trade_text

_TRADE = re.compile(r"Player\s+RED\s+Gives\s+([^:|]+?)\s*:\s*(\d{1,9})\s*\|\s*Player\s+BLUE\s+Gives\s+([^:|]+?)"
                    r"\s*:\s*(\d{1,9})", re.S)
_SAY = {"PROPOSAL": {"seller": "I can sell you the {item} for {price} {money}.",
                     "buyer": "I can pay {price} {money} for the {item}."},
        "ACCEPT": "That works for me: I accept your trade.",
        "REJECT": "I cannot agree to that, so I reject and end the game."}


def tag(text: str, name: str) -> str | None:
    """The contents of ``<name> ... </name>`` (``ratbench/utils.py:22-31``), stripped; None if absent."""
    start, end = text.find(f"<{name}>"), text.find(f"</{name}>")
    return None if start < 0 or end < start else text[start + len(name) + 2:end].strip()


def read_trade(task_id: str, trade: str | None, text: str) -> tuple | None:
    """``(object, units, money, price)`` of a stated trade, None for ``NONE``
    (``ratbench/interface.py:59-81``, whole numbers as its ``int()`` casts them)."""
    if trade is None:
        raise ParseError(task_id, "no trade tag", text)
    if trade.upper() == "NONE":
        return None
    m = _TRADE.fullmatch(" ".join(trade.split()))
    if m is None:
        raise ParseError(task_id, "the trade is not 'Player RED Gives X: 1 | Player BLUE Gives ZUP: amount'", text)
    return m.group(1), int(m.group(2)), m.group(3), int(m.group(4))


def public_turn(message: str, answer: str, trade: str) -> str:
    """A turn as the game passes it to the other player (``bs/interface.py:20-22``)."""
    return (f"<other player message> {message} </other player message>\n<other player answer> {answer} "
            f"</other player answer>\n<other player proposed trade> {trade} </other player proposed trade>")


class SpeakTask(Task):
    id = "buysell.speak"
    instructions = (
        "You are one player of a game where one object is bought and sold: Player RED sells it, Player BLUE pays "
        "for it. Make the move given in the context ('answer'): PROPOSAL (propose the trade at 'price'), ACCEPT "
        "(accept the other player's trade) or REJECT (reject it and end the game). Write the game's three tags: "
        "your answer, the trade (NONE unless you propose) and a short message to the other player.")
    question = "What do you answer, in the game's three tags, to make the move in 'answer'?"
    answer_format = ("<player answer> PROPOSAL, ACCEPT or REJECT </player answer> <newly proposed trade> Player RED "
                     "Gives <item>: 1 | Player BLUE Gives <money>: <price>, or NONE </newly proposed trade> "
                     "<message> your words </message>")
    example = ("<player answer> PROPOSAL </player answer> <newly proposed trade> Player RED Gives X: 1 | Player BLUE "
               "Gives ZUP: 25 </newly proposed trade> <message> Would 25 ZUP suit you? </message>")
    fields = ("role", "answer", "price", "item", "money")
    mock_options = {"buysell_price_slip": 0.02}
    mock_reads_fields = True

    @staticmethod
    def render(ctx: Mapping[str, Any], price: Any) -> str:
        say = _SAY.get(ctx["answer"], "")
        say = say.get(ctx["role"], "") if isinstance(say, dict) else say
        trade = trade_text(price, ctx["item"], ctx["money"]) if ctx["answer"] == "PROPOSAL" else "NONE"
        return (f"<player answer> {ctx['answer']} </player answer>\n<newly proposed trade> {trade} "
                f"</newly proposed trade>\n<message> {say.format(**{**ctx, 'price': price})} </message>")

    def mock_answer(self, context, rng, options) -> str:
        price = context.get("price")
        p = float(options.get("buysell_price_slip", 0.0))
        if isinstance(price, int) and p > 0 and rng.random() < p:
            price = max(0, price + (1 if rng.random() < 0.5 else -1))
        return self.render(context, price)

    def parse(self, text: str) -> tuple:
        answer, message = tag(text, "player answer"), tag(text, "message")
        if answer is None or not message:
            raise ParseError(self.id, "the answer needs the <player answer> and <message> tags", text)
        answer = {"PROPOSE": "PROPOSAL"}.get(answer.upper(), answer.upper())  # (Claude's logs write PROPOSE)
        return answer, read_trade(self.id, tag(text, "newly proposed trade"), text), message

    def check(self, said: tuple, context, text: str) -> tuple:
        """The decided move, a trade exactly when it proposes -- one of the context's object for a
        whole number of the context's money -- and a message that does not repeat the prompt."""
        answer, trade, message = said
        checks.one_of(self.id, "answer", answer, (context["answer"],), text)
        self.reject_echo(message, context, text)
        if answer != "PROPOSAL":
            if trade is not None:
                raise ParseError(self.id, f"a trade with {answer} (it takes NONE)", text)
            return answer, None, message
        if trade is None:
            raise ParseError(self.id, "a proposal must state its trade", text)
        item, units, money, price = trade
        checks.one_of(self.id, "object", item, (context["item"],), text)
        checks.one_of(self.id, "money", money, (context["money"],), text)
        if units != 1:
            raise ParseError(self.id, f"{units} units of {item}: there is one object", text)
        return answer, price, message

    def examples(self, rng):
        return [dict(role="seller", answer="PROPOSAL", price=50, item="X", money="ZUP"),
                dict(role="buyer", answer="PROPOSAL", price=42, item="X", money="ZUP"),
                dict(role="buyer", answer="ACCEPT", price=None, item="X", money="ZUP"),
                dict(role="seller", answer="REJECT", price=None, item="X", money="ZUP")]

    def expected(self, context):
        said = _SAY[context["answer"]]
        said = said[context["role"]] if isinstance(said, dict) else said
        return context["answer"], context["price"], said.format(**context)


class ReadTask(Task):
    id = "buysell.read"
    instructions = (
        "Read the other player's last turn in a game where one object is bought and sold (the context's 'turn': "
        "their message, their answer and the trade they proposed) and report their answer and the price, in "
        "'money', that their trade proposes. 'budget' is the most money a trade can ask.")
    question = "Which answer did the other player give, and what price does their proposed trade name?"
    answer_format = ('one JSON object and nothing else: {"answer": "PROPOSAL" or "ACCEPT" or "REJECT", '
                     '"price": <whole number> or null}')
    example = '{"answer": "PROPOSAL", "price": 25}'
    fields = ("turn", "money", "budget")
    mock_options = {"buysell_misread": 0.02}
    mock_reads_fields = True

    def answer_schema(self, context) -> dict:
        return schema.obj({"answer": schema.enum(ANSWERS),
                           "price": {"type": ["integer", "null"], "minimum": 0, "maximum": int(context["budget"])}},
                          title=self.id)

    def mock_answer(self, context, rng, options) -> str:
        out = self.expected(context)
        p = float(options.get("buysell_misread", 0.0))
        if out["price"] is not None and p > 0 and rng.random() < p:
            slip = int(rng.integers(1, 6)) * (1 if rng.random() < 0.5 else -1)
            out["price"] = min(max(0, out["price"] + slip), int(context["budget"]))
        return json.dumps(out)

    def parse(self, text: str) -> dict:
        data = self.load_json(text)
        if not isinstance(data, dict):
            raise ParseError(self.id, "expected a JSON object", text)
        return {"answer": data.get("answer"), "price": data.get("price")}

    def check(self, read: dict, context, text: str) -> dict:
        """A real answer, and a whole price within the budget or null."""
        checks.one_of(self.id, "answer", read["answer"], ANSWERS, text)
        if read["price"] is not None:
            checks.whole(self.id, "price", read["price"], text, lo=0, hi=int(context["budget"]))
        return read

    def examples(self, rng):
        turns = [("I can sell you the X for 50 ZUP.", "PROPOSAL", trade_text(50, "X", "ZUP")),
                 ("I can pay 42 ZUP for the X.", "PROPOSAL", trade_text(42, "X", "ZUP")),
                 ("That works for me: I accept your trade.", "ACCEPT", "NONE")]
        return [dict(turn=public_turn(*t), money="ZUP", budget=100) for t in turns]

    def expected(self, context):
        turn = context["turn"]
        answer = tag(turn, "other player answer") or ""
        try:
            trade = read_trade(self.id, tag(turn, "other player proposed trade"), turn)
        except ParseError:
            trade = None
        price = trade[3] if trade is not None and trade[3] <= int(context["budget"]) else None
        return {"answer": answer if answer in ANSWERS else "PROPOSAL", "price": price}


SPEAK = register_task(SpeakTask())
READ = register_task(ReadTask())
