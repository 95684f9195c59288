"""Decision rules, one algorithm per module.

Policies decide (votes, offers, strategies, replies); they speak and listen only
through :mod:`mockllm`.  Each module's docstring states its rules as a table with the
paper passage each row implements.
"""
