"""A MIND member for the seat tests (importable as ``tests.mind_agents:Stubborn``)."""

from simcore.protocols.travel_moves import Update, Vote


class Stubborn:
    """A structured policy (docs/users/api.md, "Your own policy"): agrees only to its own value and
    keeps its proposal."""

    name, tone, appraisal = "stubborn", False, False

    def guess(self, guessed_w):
        return 5

    def vote(self, me, proposal, guessed_w, last_offer=None):
        if proposal == me.value:
            return Vote("AGREE", "accept", None, "preference")
        return Vote("DISAGREE", "push", me.value, "preference")

    def update(self, me, proposal, dissents, n_voters):
        return Update("KEEP", proposal, "preference")
