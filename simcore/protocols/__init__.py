"""Protocols: whose turn it is, what is legal, when a negotiation ends (no RNG of their own)."""
