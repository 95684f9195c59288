"""Run every command line the README shows, as written and in the order written, in this
checkout after the README's Quick start (the step of .ci/run before this one ran it).

The lines are those of the README's shell blocks (fenced with no language) past the Quick
start: the block under "## The command", then the two lines of "Using a real model",
against a stand-in OpenAI-compatible server on 127.0.0.1:8000 that serves ``my-model`` with
the mock's answers (tests/fakeopenai.py); the replayed run's transcripts must equal the
recorded run's.  Each line runs in bash from the checkout, with no standard input; a line
that exits non-zero fails the step.  ``simcore`` must be on PATH (the Quick start's
virtualenv).

    python .ci/readme_commands.py            # run them
    python .ci/readme_commands.py --list     # only print them
"""

from __future__ import annotations

import argparse
import filecmp
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: the stand-in server of the real-model lines: the address and model name they are written with
MODEL_PORT, MODEL_NAME = 8000, "my-model"


def shell_blocks(readme: str) -> list[tuple[str, list[str]]]:
    """(the heading above it, its command lines) for each fenced block with no language;
    a line ending in a backslash is joined with the next, comment-only lines are dropped."""
    found, heading, block, fenced = [], "", None, False
    for line in readme.splitlines():
        if line.startswith("```"):
            if not fenced and line.strip() == "```":
                block = []
            elif fenced and block is not None:
                found.append((heading, _logical_lines(block)))
                block = None
            fenced = not fenced
            continue
        if block is not None:
            block.append(line)
        elif not fenced and line.startswith("#"):
            heading = line.lstrip("#").strip()
    return found


def _logical_lines(lines: list[str]) -> list[str]:
    out, cur = [], ""
    for line in lines:
        cur += line
        if cur.endswith("\\"):
            cur = cur[:-1]
            continue
        if cur.strip() and not cur.lstrip().startswith("#"):
            out.append(cur.strip())
        cur = ""
    return out


def readme_commands(readme: str) -> tuple[list[str], list[str]]:
    """(the Quick start's lines, the lines of every later block of ``simcore`` commands, in
    README order)."""
    blocks = shell_blocks(readme)
    quick = next(lines for heading, lines in blocks if heading == "Quick start")
    later = [ln for heading, lines in blocks
             if heading != "Quick start" and any(ln.startswith("simcore ") for ln in lines) for ln in lines]
    return quick, later


def _needs_model_server(line: str) -> bool:
    return f"127.0.0.1:{MODEL_PORT}" in line


def _run(line: str) -> int:
    print(f"$ {line}", flush=True)
    t0 = time.monotonic()
    rc = subprocess.run(["bash", "-c", line], cwd=ROOT, stdin=subprocess.DEVNULL).returncode
    print(f"  -> exit {rc} ({time.monotonic() - t0:.1f} s)", flush=True)
    return rc


def _out_of(line: str) -> str:
    m = re.search(r"--out (\S+)", line)
    return os.path.join(ROOT, m.group(1)) if m else ""


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--list", action="store_true", help="print the lines instead of running them")
    args = ap.parse_args(argv)
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        _, lines = readme_commands(fh.read())
    if args.list:
        print("\n".join(lines))
        return 0
    server = None
    failed = []
    try:
        for line in lines:
            if _needs_model_server(line) and server is None:
                sys.path.insert(0, os.path.join(ROOT, "tests"))
                from fakeopenai import FakeOpenAI  # the tests' helper: only this script needs it

                server = FakeOpenAI((MODEL_NAME,), port=MODEL_PORT)
                print(f"(a stand-in OpenAI-compatible server with the mock's answers: {server.url})")
            if _run(line) != 0:
                failed.append(line)
    finally:
        if server is not None:
            server.close()
    recorded = [_out_of(ln) for ln in lines if "--record " in ln]
    replayed = [_out_of(ln) for ln in lines if "--replay " in ln]
    for a, b in zip(recorded, replayed):
        same = filecmp.cmp(os.path.join(a, "transcripts.jsonl"), os.path.join(b, "transcripts.jsonl"),
                           shallow=False)
        print(f"replayed transcripts {'equal' if same else 'DIFFER FROM'} the recorded ones ({a}, {b})")
        if not same:
            failed.append(f"the replay of {a}")
    print(f"{len(lines) - len(failed)} of {len(lines)} README command lines ran as written"
          + (": failed:\n  " + "\n  ".join(failed) if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
