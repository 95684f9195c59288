"""The restaurant domain loader: shipped variants and clear errors for bad files."""

import json

import pytest

from scenarios.restaurants import describe, domain_from_dict, load_domain
from simcore.errors import InputError


def test_small_domain():
    d = load_domain("restaurants-small-v1")
    assert d.criterion_names == ("cuisine", "cost", "ambiance")
    assert d.criterion("cuisine").values == ("French", "Chinese", "Italian", "Turkish", "Japanese")
    assert len(d.options) == 20
    assert d.option("chez luigi").values == ("Italian", "expensive", "noisy")
    assert d.criterion_of("calm") == "ambiance"


def test_420_domain_is_the_full_product():
    d = load_domain("restaurants-420")  # version optional
    assert [len(c.values) for c in d.criteria] == [7, 3, 4, 5]
    assert len(d.options) == 420 == len({o.values for o in d.options})
    assert d.criterion_names == ("cuisine", "cost", "atmosphere", "location")


def test_describe_and_registry():
    import simcore

    assert "Chez Luigi" in describe("restaurants-small-v1")
    assert simcore.make("scenario", "restaurants-420-v1").id == "restaurants-420-v1"


GOOD = {"topic": "restaurant", "criteria": [{"name": "cuisine", "values": ["A", "B"]},
                                            {"name": "cost", "values": ["cheap", "dear"]}],
        "options": [{"name": "Uno", "values": {"cuisine": "A", "cost": "cheap"}}]}


def bad(**change):
    d = json.loads(json.dumps(GOOD))
    d.update(change)
    return d


@pytest.mark.parametrize("doc,field,words", [
    ([1], "", "JSON object"),
    (bad(extra=1), "extra", "unknown field"),
    (bad(criteria=[]), "criteria", "non-empty"),
    (bad(criteria=[{"name": "cuisine", "values": ["A"]}]), "criteria[0].values", "at least 2"),
    (bad(criteria=[{"name": "cuisine", "values": ["A", "B"]}, {"name": "cost", "values": ["A", "C"]}]),
     "criteria[1].values[0]", "unique"),
    (bad(criteria=[{"name": "cuisine", "values": ["A.", "B"]}]), "criteria[0].values[0]", "letters"),
    (bad(options=[{"name": "Uno", "values": {"cuisine": "Z", "cost": "cheap"}}]), "options[0].values.cuisine",
     "not a value"),
    (bad(options=[{"name": "Uno", "values": {"cuisine": "A"}}]), "options[0].values", "missing"),
    (bad(options=[{"name": "Uno", "values": {"cuisine": "A", "cost": "cheap"}},
                  {"name": "uno", "values": {"cuisine": "B", "cost": "cheap"}}]), "options[1].name", "duplicate"),
    (bad(options={"product": True, "name": "{nope}"}), "options.name", "template"),
    (bad(id="Bad Id"), "id", "name-v1"),
])
def test_bad_documents_name_the_field(doc, field, words):
    with pytest.raises(InputError) as exc:
        domain_from_dict(doc, "my.json")
    assert exc.value.source == "my.json" and exc.value.field == field and words in exc.value.problem


def test_bad_files(tmp_path):
    p = tmp_path / "broken.json"
    p.write_text("{not json")
    with pytest.raises(InputError, match="broken.json: line 1: not valid JSON"):
        load_domain(str(p))
    with pytest.raises(InputError, match="valid ids"):
        load_domain(str(tmp_path / "missing.json"))


def test_user_domain_file(tmp_path):
    p = tmp_path / "my-food.json"
    p.write_text(json.dumps(GOOD))
    d = load_domain(str(p))
    assert d.id == "my-food-v1" and d.options[0].name == "Uno"


def test_cli_bad_domain_is_one_line(tmp_path):
    import subprocess
    import sys

    p = tmp_path / "x.json"
    p.write_text(json.dumps(bad(criteria=[])))
    r = subprocess.run([sys.executable, "-m", "simcore.cli", "run", "dominance", "--domain", str(p),
                        "--dialogues", "1", "--out", str(tmp_path / "o")], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr
    assert "criteria: must be a non-empty list" in r.stderr
