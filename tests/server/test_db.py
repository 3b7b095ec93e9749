"""Storage: migrations and the version guard that keeps a single writer per action."""

from __future__ import annotations

from coloretto.server.db import SeatData, Store, TableData, make_engine, now, upgrade


def make_table(store: Store, tid: str) -> None:
    store.create_table(TableData(
        id=tid, title="", status="playing", rules={"players": 2}, preset=None, hints=False, rated=True, seed=1,
        setup=[], version=0, created_at=now(), finished_at=None, rematch_id=None,
        seats=[SeatData(0, "human", "A", None, "h0", False), SeatData(1, "human", "B", None, "h1", False)],
    ))


def test_upgrade_is_idempotent_and_the_version_guard_refuses_a_second_writer(db_url: str) -> None:
    engine = make_engine(db_url)
    upgrade(engine)
    upgrade(engine)
    store = Store(engine)
    for tid in ("t1", "t2", "t3"):
        make_table(store, tid)
    assert store.append_action("t1", 0, 0, 7)
    assert not store.append_action("t1", 0, 1, 8)  # a second writer at the same position loses
    # a batch (group commit): stale items are refused, the others accepted, atomically per item
    res = store.append_actions([("t1", 0, 1, 3, None), ("t2", 0, 0, 0, None), ("t3", 5, 0, 0, None), ("nope", 0, 0, 0, None)])
    assert res == [False, True, False, False]
    finished = [{"seat": 0, "name": "A", "kind": "human", "score": 10, "rank": 1},
                {"seat": 1, "name": "B", "kind": "human", "score": 5, "rank": 2}]
    assert store.append_actions([("t1", 1, 1, 9, finished), ("t3", 0, 0, 1, None)]) == [True, True]
    assert store.load_table("t1").codes == [7, 9] and store.load_table("t1").status == "finished"  # type: ignore[union-attr]
    assert store.load_table("t2").codes == [0] and store.load_table("t3").codes == [1]  # type: ignore[union-attr]
    assert not store.append_action("t1", 2, 0, 0)  # finished: nothing more
    assert [r[2] for r in store.rated_results()] == ["A", "B"]
    engine.dispose()
