"""Game dates: (year, season), ordered, starting in Spring 312 (RULINGS §1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SEASONS = ("Spring", "Summer", "Autumn", "Winter")


@dataclass(frozen=True, order=True)
class GameDate:
    year: int
    season_index: int

    @classmethod
    def of(cls, year: int, season: str) -> GameDate:
        try:
            return cls(year, SEASONS.index(season.capitalize()))
        except ValueError:
            raise ValueError(f"unknown season {season!r}; seasons are {', '.join(SEASONS)}") from None

    @classmethod
    def parse(cls, text: str) -> GameDate:
        """`Spring 312`, `312-spring` or `312 Spring`."""
        parts = text.replace("-", " ").split()
        if len(parts) == 2:
            first, second = parts
            if first.isdigit():
                return cls.of(int(first), second)
            if second.isdigit():
                return cls.of(int(second), first)
        raise ValueError(f"cannot read the date {text!r}; write it like 'Spring 312'")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> GameDate:
        return cls.of(int(data["year"]), str(data["season"]))

    def to_dict(self) -> dict[str, Any]:
        return {"year": self.year, "season": self.season}

    @property
    def season(self) -> str:
        return SEASONS[self.season_index]

    @property
    def ordinal(self) -> int:
        return self.year * 4 + self.season_index

    def plus(self, seasons: int) -> GameDate:
        ordinal = self.ordinal + seasons
        return GameDate(ordinal // 4, ordinal % 4)

    def next(self) -> GameDate:
        return self.plus(1)

    def seasons_until(self, other: GameDate) -> int:
        return other.ordinal - self.ordinal

    @property
    def is_year_start(self) -> bool:
        return self.season_index == 0

    def label(self) -> str:
        return f"{self.season} {self.year}"

    def key(self) -> str:
        return f"{self.year}-{self.season.lower()}"

    def __str__(self) -> str:
        return self.label()
