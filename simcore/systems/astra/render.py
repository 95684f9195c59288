"""ASTRA's renderings: a negotiation step by step (``simcore show``), the golden playthroughs,
and Figure 7's analogue (the offers against the Pareto frontier)."""

from __future__ import annotations

import os

from mockllm.mock import MockBackend
from policies.astra import trace_line
from scenarios.bilateral import load_domain
from simcore.errors import InputError
from simcore.metrics.astra import frontier, score_points
from simcore.seeding import derive
from simcore.systems.astra.match import play_episode
from simcore.systems.astra.registry import DEFAULT_BASE_PARTNER, SYSTEM
from simcore.transcript import read_jsonl


def render_run(events) -> str:
    events = list(events)
    lines = [f"== {events[0].run} =="] if events else []
    names = {"agent": "NegoAgent", "partner": "PartnerAgent", "system": "[protocol]"}
    for e in events:
        who = names.get(e.speaker, e.speaker)
        tag = f"r{e.round:>2} {who:<12}"
        if e.phase == "end":
            h = e.hidden
            lines.append(f"{tag} {e.text} status={e.intent.get('status')} outcome="
                         f"{e.intent.get('outcome_text') or '-'} | agent {h.get('agent_score', 0):g} "
                         f"vs partner {h.get('partner_score', 0):g}")
            continue
        mode = e.intent.get("mode") or e.phase
        line = f"{tag} ({mode}) {e.text}"
        if "offer_text" in e.intent:
            sc = e.hidden.get("true_scores", [None, None])
            line += f"  [offer {e.intent['offer_text']} | agent {sc[0]:g} / partner {sc[1]:g}]"
        lines.append(line)
        if e.hidden.get("inconsistency"):
            lines.append(f"{'':17}[Consistency Checker] inconsistency: {e.hidden['inconsistency']}; "
                         f"IPP re-inferred as {e.hidden.get('ipp_reinferred')}")
        trace = e.hidden.get("trace")
        if trace and "tactic" in trace:
            lines.append(f"{'':17}{trace_line(trace)}")
        elif trace and "heuristic" in trace:
            lines.append(f"{'':17}[no ASTRA] target {trace['target']:g}")
        if e.speaker == "agent" and e.intent.get("why"):
            lines.append(f"{'':17}[decision] {e.intent['why']}")
    return "\n".join(lines)


def _playthrough(domain_id, agent, partner, setup, seed=7, round_limit=15, label=None,
                 base_partner=DEFAULT_BASE_PARTNER):
    """``label`` names the agent in the seed and run id (the v1 playthroughs play astra-agent-v1
    under the label "astra", on the seeds of the astra playthroughs)."""
    domain = load_domain(domain_id)
    label = label or agent
    seq = derive(seed, SYSTEM, "playthrough", domain_id, label, partner, setup)
    ep, _ = play_episode(domain, agent, partner, setup, seq, backend=MockBackend(exact=True),
                         run_id=f"{SYSTEM}/playthrough/{domain_id}/{label}/{partner}/{setup}",
                         round_limit=round_limit, base_partner=base_partner)
    return render_run(ep.events) + "\n"


PLAYTHROUGHS = {
    "casino-integrative-base": lambda: _playthrough("casino-v1", "astra", "base", "integrative"),
    "casino-distributive-greedy": lambda: _playthrough("casino-v1", "astra", "greedy", "distributive"),
    "casino-integrative-no-astra": lambda: _playthrough("casino-v1", "no-astra", "base", "integrative"),
    "research-mixed-base": lambda: _playthrough("research-allocation-v1", "astra", "base", "mixed"),
    # astra-agent-v1 on the seeds of the astra playthroughs
    "v1-casino-integrative-base": lambda: _playthrough("casino-v1", "astra-v1", "base", "integrative",
                                                       label="astra", base_partner="base-partner-v1"),
    "v1-casino-distributive-greedy": lambda: _playthrough("casino-v1", "astra-v1", "greedy", "distributive",
                                                          label="astra"),
}


# ------------------------------------------------------------------ Figure 7
def plot_offers(transcripts: str, domain_ref: str, png: str, *, agent: str = "astra", partner: str = "base",
                setup: str = "integrative") -> str:
    """Figure 7 analogue: every outcome of the domain in (agent score, partner score) space under
    the true values, the Pareto frontier, the agent's offers and the partner's offers of the
    chosen pairing and setup.  Needs the ``plot`` extra (matplotlib)."""
    try:  # (an optional extra: imported only when a plot is asked for)
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise InputError("--plot", "", "needs matplotlib: pip install 'simcore[plot]'") from None
    domain = load_domain(domain_ref)
    marker = f"/{agent}/{partner}/{setup}/"
    mine, theirs, pv = [], [], None
    for e in read_jsonl(transcripts):
        if marker not in e.run or "true_scores" not in e.hidden:
            continue
        (mine if e.speaker == "agent" else theirs).append(tuple(e.hidden["true_scores"]))
    pool = domain.setup(setup).partners
    pv = pool[0]
    pts = score_points(domain, domain.agent, pv)
    front = sorted(frontier(pts))
    fig, ax = plt.subplots(figsize=(6, 5))
    ax.scatter([p[0] for p in pts], [p[1] for p in pts], s=12, c="lightgrey", label="outcomes")
    ax.plot([p[0] for p in front], [p[1] for p in front], "o-", c="green", mfc="none", label="Pareto frontier")
    if theirs:
        ax.scatter([p[0] for p in theirs], [p[1] for p in theirs], s=18, c="red", alpha=0.3,
                   label=f"{partner} partner offers")
    if mine:
        ax.scatter([p[0] for p in mine], [p[1] for p in mine], s=18, c="blue", alpha=0.3, label=f"{agent} offers")
    ax.set_xlabel("agent score")
    ax.set_ylabel("partner score")
    title = f"{domain.id}, {setup}" + (" (first partner of the setup)" if len(pool) > 1 else "")
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    tmp = os.path.join(os.path.dirname(os.path.abspath(png)), f".{os.path.basename(png)}.tmp-{os.getpid()}")
    try:  # written beside, then renamed into place (simcore.files: outputs are atomic)
        fig.savefig(tmp, dpi=110, format="png")
        os.replace(tmp, png)
    except OSError as exc:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise InputError(png, "", f"cannot write ({exc.strerror or exc})") from None
    finally:
        plt.close(fig)
    return png
