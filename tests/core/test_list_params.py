"""``simcore run SYSTEM --list-params``: every registered choice of every system, each with
its source (the passage, or "choice: reason"), and nothing the runner passes at run time."""

import pytest
from click.testing import CliRunner

from simcore.cli import cli
from simcore.registry import describe_params, register, registered, resolve, spec_params, unregister

SYSTEMS = ("mind", "scorable", "astra", "dominance")
RUNTIME = {"domain", "client", "rng", "params", "values", "side"}


@pytest.mark.parametrize("system", SYSTEMS)
def test_every_parameter_of_every_registered_policy_has_a_source_note(system):
    ids = registered("policy", system=system) + registered("protocol", system=system)
    assert ids
    missing = []
    for pid in ids:
        for p in spec_params(resolve("policy" if pid in registered("policy") else "protocol", pid)):
            if not p.source.strip():
                missing.append(f"{pid}.{p.name}")
    assert not missing, missing
    assert "(no source note)" not in describe_params(system)


@pytest.mark.parametrize("system", SYSTEMS)
def test_run_time_arguments_are_not_listed_as_parameters(system):
    for kind in ("policy", "protocol"):
        for pid in registered(kind, system=system):
            names = {p.name for p in spec_params(resolve(kind, pid))}
            assert not names & RUNTIME, (pid, names & RUNTIME)


def test_astra_lists_its_registered_choices_with_their_passages():
    r = CliRunner().invoke(cli, ["run", "astra", "--list-params"])
    assert r.exit_code == 0, r.output
    assert "domain = (required)" not in r.output and "client = " not in r.output
    v2 = {p.name: p for p in spec_params(resolve("policy", "astra-agent-v2"))}
    assert set(v2) == set(resolve("policy", "astra-agent-v2").kwargs)   # exactly the registered choices
    assert "Table 7" in v2["significant"].source and v2["significant"].default == 1.0
    assert v2["top_n"].source.startswith("choice")
    partner = {p.name: p for p in spec_params(resolve("policy", "greedy-partner-v1"))}
    assert partner["floor_share"].default == 0.75 and partner["floor_share"].source.startswith("choice")
    no_astra = {p.name: p for p in spec_params(resolve("policy", "no-astra-agent-v2"))}
    assert no_astra["step"].source.startswith("choice") and "alpha" in no_astra


def _entry(domain, client, rng, values=None, gamma: float = 0.5, **choices):
    return None


_entry.RUNTIME_ARGS = ("values",)
_entry.SOURCES = {"gamma": "eq. 9"}


def test_plain_entry_point_lists_choices_not_run_time_arguments():
    """Required arguments the spec does not give, and those the entry point names in
    ``RUNTIME_ARGS``, are run-time arguments; spec kwargs and other optional keywords are
    choices; ``SOURCES`` gives their notes."""
    register("policy", "toy-rt-v1", _entry, kwargs={"delta": 3}, meta={"system": "toyrt", "sources": {"delta": "x"}})
    try:
        got = {p.name: (p.default, p.source) for p in spec_params(resolve("policy", "toy-rt-v1"))}
        assert got == {"gamma": (0.5, "eq. 9"), "delta": (3, "x")}
    finally:
        unregister("policy", "toy-rt-v1")
