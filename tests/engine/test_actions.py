"""Actions: the stable integer encoding, the JSON form, readable strings."""

from __future__ import annotations

import pytest

from coloretto.engine import ALL_ACTIONS, NUM_DISTINCT_ACTIONS, Action, decode, encode
from coloretto.engine import actions as A


def test_encoding_is_stable() -> None:
    assert NUM_DISTINCT_ACTIONS == 20
    assert encode(Action("draw")) == 0
    assert [encode(Action("place", r)) for r in range(6)] == list(range(1, 7))
    assert [encode(Action("take", r)) for r in range(6)] == list(range(7, 13))
    assert [encode(Action("choose_start", c)) for c in range(7)] == list(range(13, 20))


def test_decode_inverts_encode() -> None:
    for code, action in enumerate(ALL_ACTIONS):
        assert action.code == code == encode(action)
        assert decode(code) is action
    for bad in (-1, 20, 1.0, True):
        with pytest.raises(ValueError):
            decode(bad)  # type: ignore[arg-type]


def test_json_round_trip() -> None:
    for action in ALL_ACTIONS:
        assert Action.from_json(action.to_json()) == action
    assert Action("take", 2).to_json() == {"action": "take", "row": 2}
    assert Action("choose_start", 3).to_json() == {"action": "choose_start", "color": "green"}
    assert Action("draw").to_json() == {"action": "draw"}


@pytest.mark.parametrize(
    "bad",
    [
        [], "draw", {"action": "discard"}, {"action": "take"}, {"action": "take", "row": -1},
        {"action": "place", "row": -6}, {"action": "take", "row": 2.0},
        {"action": "place", "row": "1"}, {"action": "place", "row": True},
        {"action": "choose_start", "color": "red"}, {"action": "choose_start"},
    ],
)
def test_bad_json_actions(bad: object) -> None:
    with pytest.raises(ValueError):
        Action.from_json(bad)


def test_readable_strings_and_properties() -> None:
    assert str(Action("draw")) == "draw"
    # Readable strings are for people: rows counted from 1 (the JSON form counts from 0).
    assert str(Action("place", 2)) == "place -> row 3"
    assert str(Action("take", 1)) == "take row 2"
    assert str(Action("take", 0)) == "take row 1" and Action("take", 0).to_json()["row"] == 0
    assert str(Action("choose_start", 0)) == "choose blue"
    assert Action("take", 1).row == 1 and Action("draw").row is None
    assert Action("choose_start", 6).color == "yellow" and Action("take", 0).color is None


def test_checked_code_rejects_what_encode_would_misread() -> None:
    assert A.checked_code(Action("take", 5)) == 12
    assert A.checked_code(7) == 7
    for bad in (Action("take", 6), Action("place", -1), Action("choose_start", 7),
                Action("draw", 0), Action("fly", 0), 20, -1, True, "draw", None):
        with pytest.raises(ValueError):
            A.checked_code(bad)


def test_any_non_negative_row_parses_but_has_no_code() -> None:
    """A row the table lacks is well-formed (an illegal action, not a malformed one), and it
    can never pass for another action through its integer code."""
    far = Action.from_json({"action": "take", "row": 99})
    assert far == Action("take", 99) and far.to_json() == {"action": "take", "row": 99}
    huge = Action.from_json({"action": "place", "row": 10**20})
    assert huge.row == 10**20
    # place row 6 would encode as 7 = take row 0; take row 13 as 20 (no action)
    for bad in (Action("place", 6), Action("take", 6), far, huge, Action("choose_start", 7)):
        with pytest.raises(ValueError, match="not an action"):
            bad.code  # noqa: B018 (the property raises)
        with pytest.raises(ValueError):
            encode(bad)


def test_a_row_beyond_the_table_is_illegal_not_aliased() -> None:
    from coloretto.engine import IllegalActionError, Rules, new_game

    st = new_game(Rules(players=4), 3)
    before = st.to_dict()
    for action in (Action("take", 99), Action("place", 6), Action("take", 10**20)):
        assert action not in st.legal_actions()
        with pytest.raises(IllegalActionError):
            st.apply(action)
    assert st.to_dict() == before
