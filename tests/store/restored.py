"""What a restore leaves: the backup's world plus the restore's public event (issue 28)."""

from __future__ import annotations

import orjson


def assert_restored(save_bytes: bytes, backup_bytes: bytes) -> None:
    """The save is the backup, but for one public chronicle entry of kind `restore` and the dice-ledger
    record naming what it abandoned: every other table as the backup holds it, the same season."""
    now, then = orjson.loads(save_bytes), orjson.loads(backup_bytes)
    assert now["meta"]["world"]["date"] == then["meta"]["world"]["date"]
    added = sorted(set(now["chronicle"]) - set(then["chronicle"]))
    assert [(now["chronicle"][e]["kind"], now["chronicle"][e]["audience"]) for e in added] == [("restore", "public")]
    assert {k: v for k, v in now["chronicle"].items() if k not in added} == then["chronicle"]
    new_records = [r for key, r in now.get("dice", {}).items() if key not in then.get("dice", {})]
    assert [r["entry"] for r in new_records] == added and all("restore" in r for r in new_records)
    for table in set(then) - {"meta", "chronicle", "dice"}:
        assert now[table] == then[table], table
