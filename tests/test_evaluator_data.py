"""The evaluator's shipped data files: a missing or corrupt one raises `EvaluatorDataError`
(a `GamblerError`, so the CLIs print one line), naming the file and the command that rebuilds it."""

import csv

import numpy as np
import pytest

from gambler.errors import GamblerError
from gambler.evaluator import EvaluatorDataError
from gambler.evaluator import matchups, preflop, tables

LOADERS = [  # (module, its cache global, its loader, the rebuild command)
    (tables, "_loaded", tables.load_tables, "python -m gambler.evaluator.tables"),
    (preflop, "_table", preflop.load_table, "python -m gambler.evaluator.preflop"),
    (matchups, "_table", matchups.load_table, "python -m gambler.evaluator.matchups"),
]


def load_from(monkeypatch, module, cache, loader, path):
    """Run `loader` as if `path` were the shipped file (the real cache is restored after)."""
    monkeypatch.setattr(module, "DATA_FILE", path)
    monkeypatch.setattr(module, cache, None)
    return loader()


@pytest.mark.parametrize("module, cache, loader, rebuild", LOADERS)
def test_a_missing_file(monkeypatch, tmp_path, module, cache, loader, rebuild):
    path = tmp_path / module.DATA_FILE.name
    with pytest.raises(EvaluatorDataError) as error:
        load_from(monkeypatch, module, cache, loader, path)
    assert str(error.value).startswith(f"{path} cannot be read (FileNotFoundError: ")
    assert str(error.value).endswith(f"rebuild it with `{rebuild}`")
    assert isinstance(error.value, GamblerError)


@pytest.mark.parametrize("module, cache, loader, rebuild", LOADERS[::2])  # the .npz files
@pytest.mark.parametrize("content", [b"", b"not a data file"])
def test_an_unreadable_npz_file(monkeypatch, tmp_path, module, cache, loader, rebuild, content):
    path = tmp_path / module.DATA_FILE.name
    path.write_bytes(content)
    with pytest.raises(EvaluatorDataError) as error:
        load_from(monkeypatch, module, cache, loader, path)
    assert str(error.value).startswith(f"{path} cannot be read (")
    assert str(error.value).endswith(f"rebuild it with `{rebuild}`")


def test_tables_built_for_other_rank_keys(monkeypatch, tmp_path):
    shipped = tables.load_tables()
    path = tmp_path / "hand_tables.npz"
    np.savez(path, hash_offsets=shipped.hash_offsets, rank_values=shipped.rank_values,
             flush_values=shipped.flush_values, rank_keys=np.array(tables.RANK_KEYS) + 1)
    with pytest.raises(EvaluatorDataError) as error:
        load_from(monkeypatch, tables, "_loaded", tables.load_tables, path)
    assert str(error.value) == (f"{path} was built for other rank keys; rebuild it with "
                                "`python -m gambler.evaluator.tables`")
    np.savez(path, hash_offsets=shipped.hash_offsets, rank_values=shipped.rank_values,
             rank_keys=np.array(tables.RANK_KEYS))  # no flush_values
    with pytest.raises(EvaluatorDataError, match="KeyError"):
        load_from(monkeypatch, tables, "_loaded", tables.load_tables, path)


def test_preflop_table_with_a_class_short_missing_or_unknown(monkeypatch, tmp_path):
    shipped = preflop.load_table().copy()
    with open(preflop.DATA_FILE, newline="") as file:
        rows = list(csv.reader(file))
    path = tmp_path / "preflop.csv"
    rebuild = "rebuild it with `python -m gambler.evaluator.preflop`"

    def load(header, body):
        with open(path, "w", newline="") as file:
            csv.writer(file).writerows([header, *body])
        return load_from(monkeypatch, preflop, "_table", preflop.load_table, path)

    with pytest.raises(EvaluatorDataError) as error:
        load(rows[0], rows[1:-1])
    assert str(error.value) == f"{path}: 168 classes, expected 169; {rebuild}"
    missing = rows[-1][0]
    with pytest.raises(EvaluatorDataError) as error:
        load(rows[0], rows[1:-1] + [rows[1]])  # the last class replaced by the first again
    assert str(error.value) == f"{path}: no row for class {missing}; {rebuild}"
    with pytest.raises(EvaluatorDataError) as error:
        load(rows[0], rows[1:-1] + [[missing, rows[-1][1], "many", "0", "0"]])
    assert str(error.value).startswith(f"{path} cannot be read (ValueError: ")
    with pytest.raises(EvaluatorDataError) as error:
        load(["not", "a", "table"], rows[1:])
    assert str(error.value) == f"{path}: no row for class {preflop.class_name(0)}; {rebuild}"
    np.testing.assert_array_equal(load(rows[0], rows[:0:-1]), shipped)  # any order


def test_matchup_table_with_rows_missing(monkeypatch, tmp_path):
    keys, counts = matchups.load_table()
    path = tmp_path / "matchups.npz"
    np.savez(path, keys=keys[:-1], wins=counts[:-1, 0], ties=counts[:-1, 1])
    with pytest.raises(EvaluatorDataError) as error:
        load_from(monkeypatch, matchups, "_table", matchups.load_table, path)
    assert str(error.value) == (f"{path}: 47007 rows, expected 47008; rebuild it with "
                                "`python -m gambler.evaluator.matchups`")
