"""Bridges between simcore and other negotiation libraries, each an optional extra imported only
when used (:mod:`simcore.bridges.negmas`: NegMAS, ``pip install 'simcore[negmas]'``)."""
