"""simcore and NegMAS, both ways (an optional extra: ``pip install 'simcore[negmas]'``; NegMAS is
AGPL-3.0, never a dependency of simcore's core).  docs/users/negmas.md shows each use.

* **Export** (:mod:`.export`): a bilateral domain as a NegMAS outcome space, each side's
  valuation as a ``LinearAdditiveUtilityFunction`` scaled to ``[0, 1]`` with the no-deal payoff
  as its reserved value, both as a ``negmas.inout.Scenario``.
* **NegMAS's agents in simcore's seats** (:mod:`.seat`): any ``SAONegotiator`` -- a class, an
  instance or ``"package.module:Class"`` -- in a seat of ASTRA's game
  (``simcore run astra --seat partner=negmas_genius_agents:HardHeaded``,
  ``simcore.astra_episode(partner=...)``, ``simcore.make_env("astra", partner=...)``).
* **simcore's agents in NegMAS's mechanisms** (:mod:`.inside`): ASTRA, the agent without ASTRA
  and simcore's partners as ``SAONegotiator``\\ s for any ``SAOMechanism`` or NegMAS tournament.
"""

from simcore.bridges.negmas.export import (Owner, from_negmas, outcome_space, owner_of, scenario, to_negmas,
                                           utility_function)
from simcore.bridges.negmas.inside import AstraNegotiator, NoAstraNegotiator, PartnerNegotiator, SimcoreNegotiator
from simcore.bridges.negmas.seat import NegotiatorSeat, is_negotiator, seat_agent

__all__ = ["outcome_space", "utility_function", "scenario", "to_negmas", "from_negmas", "owner_of", "Owner",
           "NegotiatorSeat", "is_negotiator", "seat_agent", "SimcoreNegotiator", "AstraNegotiator",
           "NoAstraNegotiator", "PartnerNegotiator"]
