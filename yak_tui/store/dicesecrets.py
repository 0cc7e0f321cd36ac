"""The season secrets of the fair dice, kept beside the save in `<save>.secrets` (mode 0600).

Only the GM's tools read this file: it is never part of the save, a backup, an export or a report,
so a player reading the save learns the commitments (public) but never the secrets. It only ever
grows (one entry per season, drawn once): a restore or a rollback leaves it as it is, so a season
re-played after a restore keeps the secrets its commitments name.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from yak_tui.kernel.errors import StoreError
from yak_tui.store.files import write_private_bytes

SECRETS_SUFFIX = ".secrets"


def secrets_path(save: Path) -> Path:
    return save.with_name(save.name + SECRETS_SUFFIX)


def read_secrets(save: Path) -> dict[str, dict[str, str]]:
    """Every season's secrets as hex, by season key; {} when there is no file yet."""
    try:
        raw = secrets_path(save).read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise StoreError(f"cannot read the dice secrets {secrets_path(save)}: {error.strerror}") from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise StoreError(f"the dice secrets {secrets_path(save)} are not JSON; nothing was changed") from None
    if not isinstance(data, dict):
        raise StoreError(f"the dice secrets {secrets_path(save)} hold no table of seasons; nothing was changed")
    return data


def write_secrets(save: Path, data: dict[str, dict[str, str]]) -> None:
    """Replace the file in one step, made with mode 0600 (mkstemp) and fsynced: a secret whose
    commitment is published must never be lost."""
    target = secrets_path(save)
    try:
        write_private_bytes(target, orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2))
    except OSError as error:
        raise StoreError(f"cannot write the dice secrets {target}: {error.strerror}; nothing was changed") from None


def drop_secrets(save: Path) -> None:
    """A new campaign at this path draws its own secrets. Best effort."""
    try:
        secrets_path(save).unlink(missing_ok=True)
    except OSError:
        pass
