"""A sweep's terminal summary shows the study's headline metrics, not every numeric leaf
(47 lines for a 2-point ASTRA sweep, where every leaf would be 666); --metrics chooses."""


from tests.clirun import simcore
from simcore.sweep import chosen_metrics




def _run(capsys, *args):
    code, out, err = simcore(capsys, *args)
    return code or 0, out, err


def test_chosen_metrics():
    names = ["results.a.DHR", "results.a.DR", "results.b.DHR", "model_calls.asks"]
    assert chosen_metrics(names, ["results.*.DHR"]) == ["results.a.DHR", "results.b.DHR"]
    assert chosen_metrics(names, ["all"]) == names and chosen_metrics(names, []) == names


def test_the_sweep_shows_the_headline_and_metrics_chooses(tmp_path, capsys):
    args = ["run", "mind", "--groups", "2", "--replicates", "2", "--grid", "tone_noise=0,0.2", "--no-progress"]
    code, out, _ = _run(capsys, *args, "--out", str(tmp_path / "a"))
    shown = [ln.split()[0] for ln in out.splitlines() if ln.startswith("results.")]
    assert code == 0 and shown and all(m.rsplit(".", 1)[1] in ("DHR", "DR", "S_total", "high_w_hit") for m in shown)
    assert "more metric(s) in sweep_summary.csv" in out
    code, out, _ = _run(capsys, *args, "--metrics", "results.mind.J", "--out", str(tmp_path / "b"))
    assert [ln.split()[0] for ln in out.splitlines() if ln.startswith("results.")] == ["results.mind.J"]
    code, _, err = _run(capsys, "run", "mind", "--groups", "2", "--metrics", "x", "--out", str(tmp_path / "c"))
    assert code == 2 and "--metrics" in err
