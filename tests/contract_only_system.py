"""The buy-sell system as a package with no study: the contract's names (simcore.catalog.INTERFACE),
its roles and its playthroughs, and nothing of ``simcore run``; tests/core/test_contract_only_system.py
plays it through every shared driver."""

from simcore.systems.buysell.envspec import ENV
from simcore.systems.buysell.evidence import ROLES
from simcore.systems.buysell.registry import REGISTRY, SYSTEM
from simcore.systems.buysell.render import PLAYTHROUGHS, render_run

__all__ = ["ENV", "ROLES", "REGISTRY", "SYSTEM", "PLAYTHROUGHS", "render_run"]
