"""Parameter profiles: the shipped ones hold the seed's numbers; bad files get one clear message."""

import pytest

from gambler.bot.params import (Profile, ProfileError, load_profile, parse_profile, save_profile,
                        shipped_profile_names)


def test_shipped_profiles():
    assert {"default", "seed", "handmade"} <= set(shipped_profile_names())
    seed = load_profile("seed")
    assert seed.rounds[0].thresholds == (-0.0113425, 0.0426328, 0.284467)
    assert seed.rounds[1].call == (403.424, 3932.59, -167.904, 29.4301)
    assert seed.rounds[2].raise_ == (410.354, 9922.06, 1146.19, -1102.27)
    assert seed.rounds[3].thresholds == (-0.329114, 0.117276, 0.486182)
    assert seed.rounds[3].raise_ == (254.358, 19795.7, 368.699, -656.29)
    handmade = load_profile("handmade")
    assert [r.thresholds for r in handmade.rounds] == [(0, 0.05, 0.2), (-0.1, 0.15, 0.3),
                                                       (-0.2, 0.2, 0.4), (-0.4, 0.3, 0.4)]
    assert [r.call for r in handmade.rounds] == [(200, 2500, 0, 0), (540, 5000, 0, 0),
                                                 (1380, 6600, 0, 0), (4000, 20000, 0, 0)]
    assert [r.raise_[:2] for r in handmade.rounds] == [(125, 2500), (125, 5000), (125, 10000),
                                                       (125, 20000)]
    assert len(seed.as_vector()) == 44
    assert Profile.from_vector(seed.as_vector()).rounds == seed.rounds


def test_cubics_truncate_toward_zero():
    flop = load_profile("seed").rounds[1]
    v = 0.5
    p = 403.424 + 3932.59 * v - 167.904 * v**2 + 29.4301 * v**3   # 2331.42...
    assert flop.call_limit(v) == int(p) == 2331
    preflop = load_profile("seed").rounds[0]
    q = -689.149 + 2251.45 * -0.1 + 428.701 * 0.01 + 666.427 * -0.001  # -910.7...: toward zero
    assert preflop.raise_target(-0.1) == int(q) == -910


def test_yaml_round_trip(tmp_path):
    seed = load_profile("seed")
    save_profile(seed, tmp_path / "copy.yaml")
    again = load_profile(tmp_path / "copy.yaml")
    assert again == seed and again.name == "seed"


GOOD = load_profile("handmade").to_yaml()


def changed(old: str, new: str) -> str:
    assert old in GOOD, old
    return GOOD.replace(old, new, 1)


@pytest.mark.parametrize("text, message", [
    (changed("river:", "riverr:"), r"mine.yaml: unknown key 'riverr'"),
    (GOOD.split("river:")[0], r"mine.yaml: round 'river' is missing"),
    (changed("thresholds: [-0.1, 0.15, 0.3]", "thresholds: [-0.1, 0.15]"),
     r"mine.yaml: flop.thresholds: expected 3 numbers, found 2"),
    (changed("thresholds: [-0.1, 0.15, 0.3]", "thresholds: [0.3, 0.15, -0.1]"),
     r"mine.yaml: flop.thresholds: \[0.3, 0.15, -0.1\] must be ascending"),
    (changed("call: [540.0, 5000.0, 0.0, 0.0]", "call: [540.0, lots, 0.0, 0.0]"),
     r"mine.yaml: flop.call\[1\]: 'lots' is not a number"),
    (changed("call: [540.0, 5000.0, 0.0, 0.0]", "call: [540.0, .nan, 0.0, 0.0]"),
     r"mine.yaml: flop.call\[1\]: nan is not finite"),
    (changed("call: [540.0, 5000.0, 0.0, 0.0]", "calls: [540.0, 5000.0, 0.0, 0.0]"),
     r"mine.yaml: flop: unknown key 'calls'"),
    (changed("  raise: [125.0, 5000.0, 0.0, 0.0]\n", ""), r"mine.yaml: flop.raise is missing"),
    (changed("flop:\n", "flop:\n  call: [1, 2, 3, 4]\n"), r"key 'call' appears twice"),
    ("preflop: [1, 2", r"mine.yaml:1: not valid YAML"),
    ("- 1\n- 2\n", r"mine.yaml: expected a mapping"),
    (changed("name: handmade", "name: [1]"), r"mine.yaml: name: expected text"),
])
def test_bad_profiles_name_the_file_and_field(text, message):
    with pytest.raises(ProfileError, match=message):
        parse_profile(text, source="mine.yaml")


V2 = "tests/data/profiles/v2-test.yaml"


def test_version_2_fields_and_round_trip(tmp_path):
    profile = load_profile(V2)
    assert profile.version == 2
    assert [r.levels for r in profile.rounds] == ["chips", "pot", "pot", "chips"]
    assert [r.price_margin for r in profile.rounds] == [None, None, 0.05, 0.1]
    save_profile(profile, tmp_path / "again.yaml")
    assert load_profile(tmp_path / "again.yaml") == profile
    # Training moves the 44 numbers, less p's four where the round calls on price (U is not
    # used there), and the two margins; with_tunable puts them back in place.
    labels = [label for label, _, _ in profile.tunable()]
    assert len(labels) == 44 - 8 + 2
    assert labels[22:26] == ["turn.thresholds[0]", "turn.thresholds[1]", "turn.thresholds[2]",
                             "turn.raise[0]"]
    assert labels[29:32] == ["turn.price", "river.thresholds[0]", "river.thresholds[1]"]
    kinds = [kind for _, _, kind in profile.tunable()]
    assert kinds[3:7] == ["c0", "c1", "c2", "c3"] and kinds[14:18] == ["p0", "p1", "p2", "p3"]
    values = [value for _, value, _ in profile.tunable()]
    values[labels.index("turn.price")] = 0.2
    assert profile.with_tunable(values).rounds[2].price_margin == 0.2
    assert profile.with_tunable([v for _, v, _ in profile.tunable()]) == profile
    # A version 1 file written as version 2 with the defaults plays the same numbers.
    seed = load_profile("seed")
    as_v2 = parse_profile("version: 2\n" + seed.to_yaml(), "v2.yaml")
    from gambler.training.engine import profile_vector

    assert (profile_vector(as_v2) == profile_vector(seed)).all() and as_v2.rounds == seed.rounds


def test_pot_levels_count_pots_from_the_rounds_start():
    flop = load_profile(V2).rounds[1]  # p(v) = 0.5086 + 9.8315 v - 0.4198 v^2 + 0.0736 v^3 pots
    v = 0.1
    pots = 0.5086 + 9.8315 * v - 0.4198 * v * v + 0.0736 * v * v * v
    assert flop.call_limit(v, start=200, pot=400) == int(200 + pots * 400) == 795


@pytest.mark.parametrize("text, message", [
    ("preflop:\n  levels: pot\n", r"v.yaml: preflop: unknown key 'levels'.*need version: 2"),
    ("version: 6\n", r"v.yaml: version: 6 is not a profile version \(1, 2, 3, 4, 5\)"),
    ("version: 2\npreflop:\n  defend: [0, 1]\n",
     r"v.yaml: preflop: unknown key 'defend'.*defend needs version: 3"),
])
def test_version_2_keys_need_version_2(text, message):
    with pytest.raises(ProfileError, match=message):
        parse_profile(text, source="v.yaml")


def test_mixing_fields_are_tunable_when_given(tmp_path):
    mixed = load_profile("tests/data/profiles/v2-mixed.yaml")
    assert [(r.slow_play, r.bluff, r.bluff_size, r.mixing) for r in mixed.rounds] == [
        (0.0, 0.0, 0.5, False), (0.3, 0.2, 0.5, True), (0.25, 0.15, 0.75, True),
        (0.2, 0.1, 1.0, True)]
    labels = [label for label, _, _ in mixed.tunable()]
    assert [label for label in labels if label.startswith("river.")][-3:] == [
        "river.slow_play", "river.bluff", "river.bluff_size"]
    assert "preflop.slow_play" not in labels  # not given for preflop: fixed at 0
    values = [value for _, value, _ in mixed.tunable()]
    values[labels.index("turn.bluff")] = 0.4
    assert mixed.with_tunable(values).rounds[2].bluff == 0.4
    save_profile(mixed, tmp_path / "again.yaml")
    assert load_profile(tmp_path / "again.yaml") == mixed


@pytest.mark.parametrize("old, new, message", [
    ("slow_play: 0.3", "slow_play: 1.5", r"flop.slow_play: 1.5 must be a number in \[0, 1\]"),
    ("bluff_size: 0.5", "bluff_size: -1", r"flop.bluff_size: -1 must be a number in \[0, 10\]"),
])
def test_bad_mixing_fields_name_the_field(old, new, message):
    text = open("tests/data/profiles/v2-mixed.yaml").read()
    assert old in text
    with pytest.raises(ProfileError, match=message):
        parse_profile(text.replace(old, new, 1), source="m.yaml")


@pytest.mark.parametrize("old, new, message", [
    ("levels: pot", "levels: pots", r"flop.levels: 'pots' is not one of chips, pot"),
    ("price: 0.05", "price: 2.0", r"turn.price: 2.0 must be off or a margin in \[-1, 1\]"),
    ("price: 0.05", "price: cheap", r"turn.price: 'cheap' must be off"),
])
def test_bad_version_2_fields_name_the_field(old, new, message):
    text = open(V2).read()
    assert old in text
    with pytest.raises(ProfileError, match=message):
        parse_profile(text.replace(old, new, 1), source="v2.yaml")


def test_unknown_profile_name_lists_the_shipped_ones():
    with pytest.raises(ProfileError, match=r"no profile file 'nosuch'.*default.*handmade.*seed"):
        load_profile("nosuch")
    assert load_profile("seed.yaml") == load_profile("seed")
    # A path with a folder, or another suffix, is a path: never a shipped profile's name.
    for path in ("elsewhere/seed.yaml", "elsewhere/seed", "seed.yml"):
        with pytest.raises(ProfileError, match=f"no profile file '{path}'"):
            load_profile(path)



NARROW = "tests/data/profiles/v2-narrow.yaml"


def test_narrow_field_round_trips_and_defaults_to_off(tmp_path):
    profile = load_profile(NARROW)
    assert profile.keep == (0.3, 0.4, 0.5, 0.5) and profile.range_aware
    from gambler.training.engine import NARROW as NARROW_OFFSET, STRIDE, profile_vector

    vector = profile_vector(profile)
    assert [vector[STRIDE * r + NARROW_OFFSET] for r in range(4)] == [0.3, 0.4, 0.5, 0.5]
    save_profile(profile, tmp_path / "again.yaml")
    assert load_profile(tmp_path / "again.yaml") == profile
    default = load_profile("default-v2")  # no narrow: every round keeps the whole range
    assert default.keep == (1.0,) * 4 and not default.range_aware
    assert "narrow" not in default.to_yaml()
    assert not any(label.endswith("narrow") for label, _, _ in profile.tunable())


@pytest.mark.parametrize("new, message", [
    ("narrow: 0", r"n.yaml: flop.narrow: 0 must be a fraction in \(0, 1\]"),
    ("narrow: 1.5", r"flop.narrow: 1.5 must be a fraction in \(0, 1\]"),
    ("narrow: most", r"flop.narrow: 'most' must be a fraction"),
])
def test_bad_narrow_names_the_field(new, message):
    text = open(NARROW).read()
    assert "narrow: 0.4" in text
    with pytest.raises(ProfileError, match=message):
        parse_profile(text.replace("narrow: 0.4", new, 1), source="n.yaml")


V3 = "tests/data/profiles/v3-defend.yaml"


def test_version_3_defence_lines_round_trip_and_are_tunable(tmp_path):
    profile = load_profile(V3)
    assert profile.version == 3
    assert [r.defend for r in profile.rounds] == [(-0.5, 1.0), (-0.6, 1.6), None, (-0.7, 2.0)]
    tunable = profile.tunable()
    labels = [label for label, _, _ in tunable]
    assert [(label, kind) for label, _, kind in tunable if "defend" in label] == [
        ("preflop.defend[0]", "threshold"), ("preflop.defend[1]", "slope"),
        ("flop.defend[0]", "threshold"), ("flop.defend[1]", "slope"),
        ("river.defend[0]", "threshold"), ("river.defend[1]", "slope")]
    values = [value for _, value, _ in tunable]
    values[labels.index("river.defend[1]")] = 0.7
    values[labels.index("flop.defend[0]")] = -0.5
    moved = profile.with_tunable(values)
    assert [r.defend for r in moved.rounds] == [(-0.5, 1.0), (-0.5, 1.6), None, (-0.7, 0.7)]
    assert moved.rounds[3].price_margin == 0.1  # the numbers after it did not shift
    save_profile(moved, tmp_path / "again.yaml")
    assert load_profile(tmp_path / "again.yaml") == moved
    # Version 2 files never write the key, and a version 2 profile has no line.
    assert "defend" not in load_profile(V2).to_yaml()
    assert all(r.defend is None for r in load_profile("default-v2").rounds)


@pytest.mark.parametrize("new, message", [
    ("defend: [-0.6]", r"d.yaml: flop.defend: expected 2 numbers, found 1"),
    ("defend: [-0.6, wide]", r"d.yaml: flop.defend\[1\]: 'wide' is not a number"),
    ("defend: -0.35", r"d.yaml: flop.defend: expected a list of 2 numbers, found float"),
])
def test_bad_defence_lines_name_the_field(new, message):
    text = open(V3).read()
    assert "defend: [-0.6, 1.6]" in text
    with pytest.raises(ProfileError, match=message):
        parse_profile(text.replace("defend: [-0.6, 1.6]", new, 1), source="d.yaml")
