"""The systems: one package per system (its match set-up, seat agents, registry entries,
environment's spec and renderings; optionally its role evidence, playthroughs and a study).
Which systems exist and what each package exports is :mod:`simcore.catalog`."""
