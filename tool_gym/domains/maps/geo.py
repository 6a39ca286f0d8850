"""Distances, routes and opening hours of the maps domain (pure functions of the data).

A route's distance is the great-circle distance between two places times a detour factor of
its travel mode; its duration follows from the mode's average speed plus a fixed overhead
(parking, waiting for a bus). Everything is rounded the one way the tools show it.
"""

from __future__ import annotations

import math
from datetime import date

#: travel mode -> (detour factor, average speed in km/h, fixed minutes)
MODES = {"driving": (1.30, 32.0, 3), "walking": (1.20, 4.8, 0), "cycling": (1.25, 15.0, 1),
         "transit": (1.35, 20.0, 7)}
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
EARTH_KM = 6371.0


def great_circle_km(lat1: float, lon1: float, lat2: float, lon2: float) -> float:
    """The haversine distance between two points, in km."""
    p1, p2 = math.radians(lat1), math.radians(lat2)
    dp, dl = p2 - p1, math.radians(lon2 - lon1)
    h = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * EARTH_KM * math.asin(min(1.0, math.sqrt(h)))


def route(a: tuple[float, float], b: tuple[float, float], mode: str) -> tuple[float, int]:
    """``(distance in km, two decimals; duration in whole minutes)`` from ``a`` to ``b``
    (each ``(lat, lon)``) by ``mode``."""
    factor, speed, fixed = MODES[mode]
    distance = round(great_circle_km(*a, *b) * factor, 2)
    minutes = max(1, round(distance / speed * 60 + fixed)) if distance else 0
    return distance, int(minutes)


def weekday(day: str) -> int:
    """0 for Monday .. 6 for Sunday."""
    return date.fromisoformat(day).weekday()


def is_open(hours: dict[int, tuple[str, str]], day: int, time: str) -> bool:
    """Whether a place with weekly ``hours`` (weekday -> (opens, closes)) is open at ``time``
    (HH:MM) on weekday ``day``: from its opening time up to, not at, its closing time."""
    span = hours.get(day)
    return span is not None and span[0] <= time < span[1]
