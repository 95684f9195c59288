"""Game files the scorable study cannot use are refused, or warned about, in one line,
and `scenarios show` takes a file as `run` does."""

import json


from tests.clirun import simcore

SHIPPED = "scenarios/data/harbour-sport-park.json"




def _game(tmp_path, edit):
    data = json.load(open(SHIPPED))
    edit(data)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(data))
    return str(path)


def _run(capsys, *args):
    code, out, err = simcore(capsys, *args)
    return code or 0, out, err


def test_a_game_where_no_deal_passes_is_refused_before_any_work(tmp_path, capsys):
    def raise_thresholds(d):
        for p in d["parties"]:
            p["threshold"] = 100
    path = _game(tmp_path, raise_thresholds)
    code, out, err = _run(capsys, "run", "scorable", "--game", path, "--trials", "1", "--out", str(tmp_path / "o"))
    assert code == 2 and "no deal passes" in err and "0/0/0" in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "o" / "metrics.json").exists()


def test_a_party_no_deal_satisfies_is_a_warning(tmp_path, capsys):
    def one_out_of_reach(d):
        last = d["parties"][-1]  # not a veto holder: deals can still pass without it
        last["threshold"] = 100
        last["scores"] = {k: [x / 2 for x in v] for k, v in last["scores"].items()}  # its best deal: 50
    path = _game(tmp_path, one_out_of_reach)
    code, out, err = _run(capsys, "run", "scorable", "--game", path, "--trials", "1", "--methods", "base-om-p1",
                              "--no-progress", "--out", str(tmp_path / "o"))
    assert code == 0 and "warning" in err and "no deal reaches the threshold" in err


def test_p2_without_a_veto_is_refused(tmp_path, capsys):
    def drop_veto(d):
        for p in d["parties"]:
            if p["role"] == "p2":
                p["veto"] = False
    path = _game(tmp_path, drop_veto)
    code, out, err = _run(capsys, "run", "scorable", "--game", path, "--trials", "1", "--out", str(tmp_path / "o"))
    assert code == 2 and "'p2' has no veto" in err


def test_scenarios_show_takes_a_file(capsys):
    code, out, _ = _run(capsys, "scenarios", "show", SHIPPED)
    assert code == 0 and "parties (threshold, veto, score table)" in out
    code, out, _ = _run(capsys, "scenarios", "show", "scenarios/data/casino.json")
    assert code == 0 and out.strip()
    code, out, _ = _run(capsys, "scenarios", "show", "scenarios/data/restaurants-small.json")
    assert code == 0 and "restaurant" in out.lower()


def test_scenarios_list_as_json(capsys):
    code, out, _ = _run(capsys, "scenarios", "list", "--json")
    rows = json.loads(out)
    assert code == 0 and {"id", "system", "description"} == set(rows[0]) and any(r["system"] == "mind" for r in rows)
