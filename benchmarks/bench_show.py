"""``simcore show`` on a large transcript: peak memory and CPU time.

    python benchmarks/bench_show.py [--mb 150] [--src DIR ...] [--keep FILE]

Writes a transcript of about ``--mb`` MB: the transcript of a small MIND run
(``--groups 3 --variants base,mind``) repeated with the seed part of every run id
renumbered (``mind/s0/...``, ``mind/s1/...``, ...), so every run id is distinct and
``g1/mind`` matches one run per copy.  Then, each in a fresh process, with the code
of each ``--src`` checkout (default: this one; give an older checkout such as a
``git worktree add --detach /tmp/old <commit>`` to measure "before"):

* ``show FILE --group g1/mind`` -- the first of thousands of matches, the rest named;
* ``show FILE --group mind/sLAST/g1/mind`` -- a full id whose run is at the end;
* ``show FILE`` -- the first three runs.

and prints the peak resident memory (``ru_maxrss`` of that process) and its CPU time
(user + system), with the size of the output.  Results: benchmarks/results-show.md.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# run in the child: show_file in this process, then its own peak RSS and CPU time
CHILD = """
import json, resource, sys
from simcore.show import show_file
from simcore.errors import SimcoreError
path, group = sys.argv[1], (sys.argv[2] or None)
try:
    text = show_file(path, run_id=group)
    status = "ok"
except SimcoreError as exc:
    text, status = "", f"error: {exc}"
except MemoryError:
    text, status = "", "MemoryError"
r = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"maxrss_mb": r.ru_maxrss / 1024, "cpu_s": r.ru_utime + r.ru_stime,
                  "out_chars": len(text), "status": status}))
"""


def make_transcript(path: str, mb: int, src: str) -> int:
    """Write the big transcript; returns the number of copies (seeds)."""
    small = tempfile.mkdtemp(prefix="simcore-show-bench-")
    subprocess.run([sys.executable, "-m", "simcore.cli", "run", "mind", "--groups", "3", "--variants", "base,mind",
                    "--out", os.path.join(small, "mind"), "--no-progress"], check=True, cwd=src,
                   env=dict(os.environ, PYTHONPATH=src), stdout=subprocess.DEVNULL)
    with open(os.path.join(small, "mind", "transcripts.jsonl"), encoding="utf-8") as fh:
        lines = fh.read().splitlines()
    assert all(line.startswith('{"run":"mind/s0/') for line in lines)
    size = sum(len(line.encode()) + 1 for line in lines)
    copies = max(1, mb * 10**6 // size)
    with open(path, "w", encoding="utf-8") as out:
        for k in range(copies):
            prefix = f'{{"run":"mind/s{k}/'
            out.write("".join(prefix + line[len('{"run":"mind/s0/'):] + "\n" for line in lines))
    return copies


def measure(src: str, path: str, group: str | None) -> dict:
    proc = subprocess.run([sys.executable, "-c", CHILD, path, group or ""], capture_output=True, text=True,
                          cwd=src, env=dict(os.environ, PYTHONPATH=src))
    if proc.returncode != 0:
        return {"status": f"exit {proc.returncode}: {proc.stderr.strip().splitlines()[-1:]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=150, help="size of the generated transcript, in MB")
    ap.add_argument("--src", action="append", help="a checkout whose code to measure (repeatable)")
    ap.add_argument("--keep", help="write the transcript here and keep it (default: a temporary file)")
    args = ap.parse_args()
    srcs = args.src or [ROOT]
    path = args.keep or os.path.join(tempfile.mkdtemp(prefix="simcore-show-bench-"), "transcripts.jsonl")
    copies = make_transcript(path, args.mb, ROOT)
    print(f"transcript: {os.path.getsize(path) / 1e6:.0f} MB, {copies} copies of a 6-run MIND transcript "
          f"({6 * copies} runs); python {sys.version.split()[0]}")
    cases = [("--group g1/mind", "g1/mind"), (f"--group mind/s{copies - 1}/g1/mind", f"mind/s{copies - 1}/g1/mind"),
             ("(no --group: first 3 runs)", None)]
    print(f"{'code':<28} {'command':<34} {'peak RSS MB':>11} {'CPU s':>7} {'output chars':>12}  status")
    for src in srcs:
        for label, group in cases:
            r = measure(src, path, group)
            print(f"{os.path.basename(os.path.abspath(src)):<28} {label:<34} {r.get('maxrss_mb', 0):>11.0f} "
                  f"{r.get('cpu_s', 0):>7.2f} {r.get('out_chars', 0):>12}  {r['status'][:60]}")
    if not args.keep:
        os.remove(path)


if __name__ == "__main__":
    main()
