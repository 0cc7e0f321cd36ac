"""The one wall clock of the rules, and how a moment is written, read and shown across time zones.

Forum seasons run on real deadlines: the GM gives one in his own words ("2026-12-07 20:00
Europe/Berlin", "2026-12-07T20:00Z"), the save keeps it in UTC, and every seat reads it in his own
zone and as "in 2 days 3 h" / "passed 5 h ago". No rule reads `datetime.now()` itself: it asks
`now()`, which a test (or a scripted run, `YAK_NOW`) freezes, so a campaign replays byte for byte.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from yak_tui.kernel.errors import CommandError
from yak_tui.kernel.world.numbers import counted

if TYPE_CHECKING:  # zoneinfo is imported when a zone is named: a read with no deadline names none
    from zoneinfo import ZoneInfo

Clock = Callable[[], datetime]
# A frozen moment for a whole process (a scripted CLI run, an end-to-end test): ISO, with an offset or Z.
NOW_ENV = "YAK_NOW"
_DURATION = re.compile(r"(\d+)\s*(d|h|m)")


def system_clock() -> datetime:
    """The machine's clock, in UTC; `YAK_NOW` freezes it for a process."""
    frozen = os.environ.get(NOW_ENV, "").strip()
    if frozen:
        return parse_moment(frozen)
    return datetime.now(UTC)


_clock: Clock = system_clock


def now() -> datetime:
    """The moment the rules act at, in UTC, to the minute (what the save keeps)."""
    return _clock().astimezone(UTC).replace(second=0, microsecond=0)


def set_clock(clock: Clock) -> Clock:
    """Make `clock` the rules' clock; returns the one it replaces (give it back when done)."""
    global _clock
    previous, _clock = _clock, clock
    return previous


@contextmanager
def frozen_clock(at: datetime | str) -> Iterator[Callable[[timedelta], None]]:
    """The rules' clock stands at `at` inside the block; the function it yields moves it on."""
    moment = [parse_moment(at) if isinstance(at, str) else at.astimezone(UTC)]

    def move(by: timedelta) -> None:
        moment[0] += by

    previous = set_clock(lambda: moment[0])
    try:
        yield move
    finally:
        set_clock(previous)


def zone(name: str, field: str = "zone") -> ZoneInfo:
    """The IANA zone named (`Europe/Berlin`, `UTC`), or a refusal naming the field."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise CommandError(field, f"{name!r} is no time zone; give an IANA name like Europe/Berlin or UTC") from None


def _local(naive: datetime, tz: ZoneInfo, field: str) -> datetime:
    """A wall-clock time in `tz`: refused when the clocks skip it (spring forward); of a time they
    pass twice (fall back) the first is meant."""
    aware = naive.replace(tzinfo=tz, fold=0)
    if aware.astimezone(UTC).astimezone(tz).replace(tzinfo=None) != naive:
        raise CommandError(field, f"{_minutes(naive)} does not exist in {tz.key}: the clocks skip it")
    return aware


def parse_moment(text: str, default_zone: str = "UTC", field: str = "at") -> datetime:
    """A moment in UTC from '2026-12-07T20:00Z', '2026-12-07 20:00+01:00', '2026-12-07 20:00
    Europe/Berlin' or a date alone (midnight); without an offset or zone it is read in `default_zone`."""
    cleaned = " ".join(text.split())
    head, _, tail = cleaned.rpartition(" ")
    tz_name = ""
    if head and ("/" in tail or tail.upper() == "UTC"):
        cleaned, tz_name = head, tail
    try:
        parsed = datetime.fromisoformat(cleaned.replace("z", "Z"))
    except ValueError:
        raise CommandError(
            field, f"must be a date and time like 2026-12-07 20:00 Europe/Berlin or 2026-12-07T20:00Z, not {text!r}"
        ) from None
    if parsed.tzinfo is not None and tz_name:
        raise CommandError(field, f"{text!r} gives both an offset and a zone; give one")
    try:
        if parsed.tzinfo is not None:
            return parsed.astimezone(UTC)
        return _local(parsed, zone(tz_name or default_zone, field), field).astimezone(UTC)
    except OverflowError:
        raise CommandError(field, f"{text!r} lies outside the calendar (years 1 to 9999 in UTC)") from None


def _minutes(moment: datetime) -> str:
    """'2026-12-07 20:00' of a moment as it stands (isoformat keeps year 1 four digits; strftime does not)."""
    return moment.replace(tzinfo=None).isoformat(sep=" ", timespec="minutes")


def stored(moment: datetime) -> str:
    """How the save writes a moment: UTC, to the minute ('2026-12-07T19:00Z')."""
    return _minutes(moment.astimezone(UTC)).replace(" ", "T") + "Z"


def read_stored(text: str) -> datetime:
    """A moment the save holds (older saves wrote '2026-12-07 20:00', read as UTC)."""
    return parse_moment(text)


def shown_in(moment: datetime, tz: ZoneInfo | None) -> str:
    """A moment as a reader in `tz` reads it: '2026-12-07 20:00 CET (Europe/Berlin)'; UTC without one."""
    if tz is None:
        from zoneinfo import ZoneInfo

        tz = ZoneInfo("UTC")
    local = moment.astimezone(tz)
    abbreviation = local.tzname() or ""
    name = "" if tz.key in ("UTC", abbreviation) else f" ({tz.key})"
    return f"{_minutes(local)} {abbreviation}{name}"


def span(delta: timedelta) -> str:
    """A length of time in the two largest units a reader needs: '2 days 3 h', '5 h', '12 min'."""
    minutes = int(abs(delta).total_seconds() // 60)
    days, rest = divmod(minutes, 24 * 60)
    hours, mins = divmod(rest, 60)
    if days:
        return counted(days, "day") + (f" {hours} h" if hours else "")
    if hours:
        return f"{hours} h" + (f" {mins} min" if mins else "")
    return f"{mins} min"


def relative(moment: datetime, at: datetime) -> str:
    """'in 2 days 3 h' before the moment, 'passed 5 h ago' after it (`at`: now)."""
    if moment >= at:
        return f"in {span(moment - at)}"
    return f"passed {span(at - moment)} ago"


def parse_duration(text: str, field: str = "by") -> timedelta:
    """'24h', '2d', '90m', '1d 12h' as a length of time (more than none)."""
    cleaned = text.strip().lower().replace(" ", "")
    parts = _DURATION.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise CommandError(field, f"must be a length of time like 24h, 2d, 90m or 1d12h, not {text!r}")
    units = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}
    total = sum((int(n) * units[u] for n, u in parts), timedelta())
    if total <= timedelta():
        raise CommandError(field, f"must be longer than nothing, not {text!r}")
    return total


def is_late(meta: Mapping[str, Any], at: datetime) -> bool:
    """An order filed at `at` is late: the season's deadline (`meta`) is set, not paused, and passed."""
    deadline = meta.get("deadline")
    return bool(deadline) and not meta.get("deadline_paused") and at > read_stored(str(deadline))
