"""A role on a server of its own: ``--role ROLE=URL`` (or ``ROLE=openai-compat-v1`` with
``--role-arg ROLE:base_url=URL``) sends that role's requests, and only those, to the server,
while the words stay on the run's backend -- the mock, or another server."""

from __future__ import annotations

import json

import pytest

from clirun import one_line, simcore
from fakeopenai import FakeOpenAI
from mockllm.backend import Message
from mockllm.tasks import read_prompt

ASTRA = ["run", "astra", "--episodes", "1", "--setups", "integrative", "--partners", "base", "--agents", "astra",
         "--rounds", "8", "--no-progress"]
MIND = ["run", "mind", "--groups", "1", "--sizes", "2", "--variants", "base", "--no-progress"]


def _tasks(server) -> list[str]:
    """The task id of each chat request the server got, in order."""
    return [read_prompt([Message(m["role"], m["content"]) for m in p["body"]["messages"]])[0].id
            for p in server.posts]


@pytest.fixture
def server():
    s = FakeOpenAI(("fake-model",))
    yield s
    s.close()


@pytest.fixture
def words():
    s = FakeOpenAI(("words-model",))
    yield s
    s.close()


def test_a_role_on_a_server_while_the_mock_speaks(server, capsys, tmp_path):
    """Only the role's task reaches the server; the mock speaks and reads every word.  The
    fake server answers as the mock does, so the run is the run with the mock in the role."""
    code, _, err = simcore(capsys, *ASTRA, "--role", f"astra.tactic={server.url}", "--out", str(tmp_path / "a"))
    assert code == 0, err
    assert "--role-arg astra.tactic:model not given: using 'fake-model'" in err
    assert _tasks(server) and set(_tasks(server)) == {"astra.tactic"}
    m = json.loads((tmp_path / "a" / "metrics.json").read_text())
    assert m["config"]["roles"] == [["astra.tactic", f"openai-compat-v1 base_url={server.url} model=fake-model"]]
    assert m["backend"] == {"id": "mock-v1", "model": None}
    assert m["model_calls"]["by_task"]["astra.tactic"]["asks"] == len(server.posts)
    code, _, err = simcore(capsys, *ASTRA, "--role", "astra.tactic=mock-v1", "--out", str(tmp_path / "b"))
    assert code == 0, err
    for name in ("astra_table1.csv", "astra_tactics.csv"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes(), name


def test_a_role_on_another_server_than_the_words(server, words, capsys, tmp_path):
    """The words on one server (--base-url), mind.base on another (--role ... --role-arg):
    neither gets the other's requests."""
    code, _, err = simcore(capsys, *MIND, "--base-url", words.url, "--role", "mind.base=openai-compat-v1",
                           "--role-arg", f"mind.base:base_url={server.url}", "--role-arg", "mind.base:model=fake-model",
                           "--role-arg", "mind.base:tries=3", "--out", str(tmp_path / "a"))
    assert code == 0, err
    assert set(_tasks(server)) == {"mind.base"}
    assert _tasks(words) and "mind.base" not in _tasks(words)
    assert {p["body"]["model"] for p in server.posts} == {"fake-model"}
    assert {p["body"]["model"] for p in words.posts} == {"words-model"}
    m = json.loads((tmp_path / "a" / "metrics.json").read_text())
    assert m["backend"] == {"id": "openai-compat-v1", "model": "words-model"}
    assert m["model_calls"]["by_task"]["mind.base"]["asks"] == len(server.posts)


def test_table_4_names_the_judges_server(server, capsys, tmp_path):
    code, stdout, err = simcore(capsys, "run", "mind", "--groups", "2", "--variants", "mind,base", "--no-progress",
                                "--role", f"mind.judge={server.url}", "--out", str(tmp_path / "a"))
    assert code == 0, err
    assert set(_tasks(server)) == {"mind.judge"}
    assert f"judged by openai-compat-v1 at {server.url} (model fake-model) in the mind.judge role" in stdout


def test_a_server_that_is_down_stops_the_run(capsys, tmp_path):
    """Nothing listens at the role's address: the model list cannot be read, one line before any work."""
    dead = FakeOpenAI()
    url = dead.url
    dead.close()
    code, _, err = simcore(capsys, *ASTRA, "--role", f"astra.tactic={url}", "--out", str(tmp_path / "a"))
    assert code == 2 and "--role-arg astra.tactic:model=NAME" in one_line(err)
    assert not (tmp_path / "a").exists()


@pytest.mark.parametrize("args, words", [
    (["--role", "astra.tactic=openai-compat-v1"], "needs a server: give its address, astra.tactic=http://"),
    (["--role", "astra.tactic=model", "--role-arg", "astra.tactic:model=m"], "its arguments are the run's --backend-arg"),
    (["--role-arg", "astra.tactic:model=m"], "astra.tactic has no backend of its own"),
    (["--role", "astra.tactic=mock-v1", "--role-arg", "astra.tactic"], "expected ROLE:KEY=VALUE"),
    (["--role", "astra.tactic=http://127.0.0.1:9/v1", "--role-arg", "astra.tactic:nope=1"],
     "--role-arg: astra.tactic:nope: not an argument of openai-compat-v1"),
    (["--role", "astra.tactic=http://127.0.0.1:9/v1", "--role-arg", "astra.tactic:model=a b"], "without spaces"),
    (["--role", "astra.tactic=http://127.0.0.1:9/v1", "--role-arg", "astra.tactic:model=m",
      "--role-arg", "astra.tactic:model=n"], "given twice"),
    (["--role", "astra.tactic=http://127.0.0.1:9/v1", "--role-arg", "astra.tactic:model=m",
      "--role-arg", "astra.tactic:tries=0"], "--role: astra.tactic: openai-compat backend: tries must be"),
])
def test_a_bad_role_backend_is_one_line_before_any_work(capsys, tmp_path, args, words):
    code, _, err = simcore(capsys, *ASTRA, *args, "--out", str(tmp_path / "a"))
    assert code == 2 and words in one_line(err), err
    assert not (tmp_path / "a").exists()


def test_a_role_on_its_own_server_is_not_recorded(server, capsys, tmp_path):
    code, _, err = simcore(capsys, *ASTRA, "--role", f"astra.tactic={server.url}", "--record",
                           str(tmp_path / "c.jsonl"), "--out", str(tmp_path / "a"))
    assert code == 2 and "a cassette holds the run's backend" in one_line(err) and "astra.tactic=model" in err
    assert not server.posts and not (tmp_path / "c.jsonl").exists()


def test_several_models_on_the_role_server_ask_for_one(capsys, tmp_path):
    s = FakeOpenAI(("a", "b"))
    try:
        code, _, err = simcore(capsys, *ASTRA, "--role", f"astra.tactic={s.url}", "--out", str(tmp_path / "a"))
    finally:
        s.close()
    assert code == 2 and "lists 2 models (a, b): choose one with --role-arg astra.tactic:model=NAME" in one_line(err)


def test_a_config_gives_the_role_backend_from_python(server):
    """The config's form: a URL is openai-compat-v1 at that address; the id with its arguments
    is kept as given (nothing is asked of the server until a job runs)."""
    from simcore.systems.astra.study import AstraConfig

    c = AstraConfig(roles={"astra.tactic": server.url})
    assert c.roles == (("astra.tactic", f"openai-compat-v1 base_url={server.url}"),)
    c = AstraConfig(roles={"astra.tactic": f"openai-compat-v1 base_url={server.url} model=fake-model"})
    assert c.roles == (("astra.tactic", f"openai-compat-v1 base_url={server.url} model=fake-model"),)
    assert not server.posts and not server.gets
