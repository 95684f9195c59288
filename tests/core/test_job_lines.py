"""A job run in a pool worker sends its events as transcript lines (a str pickles
far cheaper than an Event); the parent writes them exactly as it writes the events."""

from __future__ import annotations

import io
import pickle

from simcore.systems.mind import STUDY, MindConfig
from simcore.study import _Call, _TranscriptStream
from simcore.transcript import write_jsonl


def test_lines_from_a_worker_are_written_as_the_events_are():
    config = MindConfig(groups=2)
    job = STUDY.jobs(config)[1]
    plain = _Call("simcore.systems.mind:STUDY", config)(job)
    encoded = pickle.loads(pickle.dumps(_Call("simcore.systems.mind:STUDY", config, encode_events=True)(job)))
    assert plain.events and not encoded.events and len(encoded.lines) == len(plain.events)
    assert encoded.record.keys() == plain.record.keys() and encoded.calls == plain.calls
    want, got = io.StringIO(), io.StringIO()
    write_jsonl(plain.events, want)
    stream = _TranscriptStream(got)
    kept = stream(encoded)
    assert got.getvalue() == want.getvalue() and stream.events == len(plain.events)
    assert not kept.lines and not kept.events
