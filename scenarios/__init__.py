"""Domain data and generators, each loaded through one validated loader.

Shipped data files live in ``scenarios/data/``; bad files raise
:class:`simcore.errors.InputError` naming the file, the field and the problem.
"""
