"""Output for tools: plain-run CSVs hold numbers with interval columns,
`--json` prints the tables as data, and the fallback line is shown once per run."""

import csv
import io
import json


from tests.clirun import simcore
from simcore.tables import Num, Table




def _run(capsys, *args):
    code, out, err = simcore(capsys, *args)
    return code or 0, out, err


def test_a_share_is_a_fraction_in_the_csv_and_a_percentage_on_the_terminal():
    t = Table("t", "T", ("variant", "DHR", "n"), [("mind", Num(0.7912, "79.1%", 0.75, 0.83), 12),
                                                  ("base", Num(None, "-"), 10)])
    assert "79.1%" in t.render()
    rows = list(csv.reader(io.StringIO(t.to_csv())))
    assert rows[0] == ["variant", "DHR", "DHR ci95 lo", "DHR ci95 hi", "n"]
    assert [float(x) for x in rows[1][1:]] == [0.7912, 0.75, 0.83, 12.0]
    assert rows[2] == ["base", "", "", "", "10"]
    assert t.to_json()["rows"][0][1] == {"value": 0.7912, "ci95": [0.75, 0.83]}


def test_every_cell_of_a_mind_csv_but_the_label_is_a_number(tmp_path, capsys):
    code, out, _ = _run(capsys, "run", "mind", "--groups", "4", "--seeds", "2", "--no-progress",
                            "--out", str(tmp_path / "o"))
    assert code == 0 and out.count("model answers:") == 1
    rows = list(csv.reader(open(tmp_path / "o" / "table1_performance.csv")))
    assert "DHR ci95 lo" in rows[0]
    for row in rows[1:]:
        assert all(float(x) >= 0 for x in row[1:])  # no "79.1%": every cell parses


def test_json_prints_the_tables_as_data(tmp_path, capsys):
    code, out, _ = _run(capsys, "run", "mind", "--groups", "3", "--no-progress", "--json",
                            "--out", str(tmp_path / "o"))
    data = json.loads(out)
    assert code == 0 and data["system"] == "mind" and data["model_calls"]["asks"] > 0
    metrics = json.loads((tmp_path / "o" / "metrics.json").read_text())
    assert data["readings"] == metrics["readings"] and data["readings"]["read"] > 0  # the line the text prints
    t1 = next(t for t in data["tables"] if t["name"] == "table1_performance")
    cell = t1["rows"][0][1]
    assert isinstance(cell, float) or (isinstance(cell["value"], float) and len(cell["ci95"]) == 2)
    code, _, err = _run(capsys, "run", "mind", "--groups", "3", "--json", "--replicates", "2",
                            "--out", str(tmp_path / "s"))
    assert code == 2 and "--json" in err
