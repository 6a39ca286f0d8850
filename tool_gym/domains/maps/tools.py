"""The tools of the maps domain: 14 reads, 12 writes and a transfer to a human agent.

Every tool takes the sandbox's SQLite connection first and uses parameterized SQL only. A
write checks all its preconditions before its first statement and raises
:class:`ToolError` with a clear message when one fails (the toolbox also wraps each write in
a savepoint).

Rules the tools enforce: one review per user and place, never of a business the user has
claimed, on a place that is not permanently closed; a place's rating is the mean of its
reviews (two decimals), kept up to date by every review change; a saved list holds a place
once; a trip's stops are operating places of the trip's city, at distinct times, at most 10;
a trip is planned for today or later. That a stop must fall within the place's opening
hours is a policy rule the agent must apply (the tool does not check it).
"""

from __future__ import annotations

import re
import sqlite3
from typing import Annotated, Literal

from ...core.arguments import check_date
from ...core.common_tools import human_transfer_tool
from ...core.ids import counted_id
from ...core.rows import fetch_dicts, fetch_row, find_id
from ...core.tools import Category, Entity, Quotas, ToolError, tool
from .geo import WEEKDAYS, great_circle_km, is_open, route, weekday

#: Growth bounds of one sandbox (see :class:`~tool_gym.core.tools.Quotas`).
QUOTAS = Quotas(rows={"saved_lists": 3_000, "saved_places": 10_000, "reviews": 8_000,
                      "place_reports": 3_000, "trips": 3_000, "trip_stops": 6_000})

#: The maps' clock (fixed, so that every episode is reproducible).
TODAY = "2024-06-14"
MAX_LISTS = 20
MAX_TRIPS = 30
MAX_LIST_PLACES = 100
MAX_STOPS = 10
MAX_NAME = 40
MAX_TEXT = 1000
#: The widest circle a nearby search covers (km) and the most places a search returns.
MAX_RADIUS_KM = 10.0
MAX_RESULTS = 20

UserId = Annotated[str, Entity("user_id")]
PlaceId = Annotated[str, Entity("place_id")]
ListId = Annotated[str, Entity("list_id")]
ReviewId = Annotated[str, Entity("review_id")]
TripId = Annotated[str, Entity("trip_id")]

TravelMode = Literal["driving", "walking", "cycling", "transit"]
Issue = Literal["wrong_hours", "wrong_phone", "wrong_address", "permanently_closed",
                "duplicate", "other"]
CATEGORIES = ("restaurant", "cafe", "bar", "museum", "park", "hotel", "supermarket",
              "pharmacy", "gas_station", "gym", "library", "bakery")
CITIES = ("Austin", "Denver", "Seattle", "Boston", "Chicago", "Portland")

_TIME = re.compile(r"^(?:[01]\d|2[0-3]):[0-5]\d$")
_PLACE_COLUMNS = ("place_id", "name", "category", "city", "address", "lat", "lon", "phone",
                  "price_level", "status", "owner_id", "rating", "review_count")


# ------------------------------------------------------------------------- records

def _user(db: sqlite3.Connection, user_id: str) -> tuple:
    return fetch_row(db, "SELECT user_id, first_name, last_name, email, username, home_city, "
                     "member_since FROM users WHERE user_id = ?", (user_id,),
                     f"User {user_id!r} not found.")


def _place(db: sqlite3.Connection, place_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_PLACE_COLUMNS)} FROM places WHERE place_id = ?",
                    (place_id,), f"Place {place_id!r} not found.")
    return dict(zip(_PLACE_COLUMNS, row))


def hours_of(db: sqlite3.Connection, place_id: str) -> dict[int, tuple[str, str]]:
    """A place's weekly opening hours: weekday (0 Monday) -> (opens, closes)."""
    return {d: (o, c) for d, o, c in db.execute(
        "SELECT weekday, opens, closes FROM opening_hours WHERE place_id = ? ORDER BY weekday",
        (place_id,))}


def _hours_record(hours: dict[int, tuple[str, str]]) -> list[dict]:
    return [{"day": WEEKDAYS[d], "opens": hours[d][0], "closes": hours[d][1]}
            if d in hours else {"day": WEEKDAYS[d], "closed": True} for d in range(7)]


def _summary(place: dict) -> dict:
    """What a search shows of a place."""
    return {k: place[k] for k in ("place_id", "name", "category", "city", "address", "rating",
                                  "review_count", "status")}


def _check_name(name: str, what: str) -> str:
    name = " ".join(name.split())
    if not name:
        raise ToolError(f"The {what} name must not be empty.")
    if len(name) > MAX_NAME:
        raise ToolError(f"The {what} name may have at most {MAX_NAME} characters.")
    return name


def _check_text(text: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise ToolError(f"The {what} must not be empty.")
    if len(text) > MAX_TEXT:
        raise ToolError(f"The {what} may have at most {MAX_TEXT} characters.")
    return text


def _check_time(value: str, name: str) -> str:
    if not _TIME.match(value):
        raise ToolError(f"{name} must be HH:MM on a 24-hour clock, got {value[:20]!r}.")
    return value


def _list(db: sqlite3.Connection, list_id: str) -> dict:
    row = fetch_row(db, "SELECT list_id, user_id, name, created_on FROM saved_lists "
                    "WHERE list_id = ?", (list_id,), f"List {list_id!r} not found.")
    return dict(zip(("list_id", "user_id", "name", "created_on"), row))


def _list_record(db: sqlite3.Connection, saved: dict) -> dict:
    saved["places"] = fetch_dicts(
        db, ("place_id", "name", "city", "category", "note", "added_on"),
        "SELECT s.place_id, p.name, p.city, p.category, s.note, s.added_on FROM saved_places s "
        "JOIN places p ON p.place_id = s.place_id WHERE s.list_id = ? ORDER BY s.rowid",
        (saved["list_id"],))
    return saved


_REVIEW_COLUMNS = ("review_id", "place_id", "user_id", "rating", "text", "created_on",
                   "updated_on")


def _review(db: sqlite3.Connection, review_id: str) -> dict:
    row = fetch_row(db, f"SELECT {', '.join(_REVIEW_COLUMNS)} FROM reviews "
                    "WHERE review_id = ?", (review_id,), f"Review {review_id!r} not found.")
    return dict(zip(_REVIEW_COLUMNS, row))


def place_rating(ratings: list[int]) -> float | None:
    """The rating a place shows: the mean of its reviews, two decimals (None: no review)."""
    return round(sum(ratings) / len(ratings), 2) if ratings else None


def _rerate(db: sqlite3.Connection, place_id: str) -> None:
    ratings = [r for (r,) in db.execute("SELECT rating FROM reviews WHERE place_id = ?",
                                        (place_id,))]
    db.execute("UPDATE places SET rating = ?, review_count = ? WHERE place_id = ?",
               (place_rating(ratings), len(ratings), place_id))


def _trip(db: sqlite3.Connection, trip_id: str) -> dict:
    row = fetch_row(db, "SELECT trip_id, user_id, name, city, date, travel_mode FROM trips "
                    "WHERE trip_id = ?", (trip_id,), f"Trip {trip_id!r} not found.")
    return dict(zip(("trip_id", "user_id", "name", "city", "date", "travel_mode"), row))


def _stops(db: sqlite3.Connection, trip_id: str) -> list[dict]:
    return fetch_dicts(db, ("place_id", "name", "arrive_at", "lat", "lon"),
                       "SELECT s.place_id, p.name, s.arrive_at, p.lat, p.lon FROM trip_stops s "
                       "JOIN places p ON p.place_id = s.place_id WHERE s.trip_id = ? "
                       "ORDER BY s.arrive_at", (trip_id,))


def _trip_record(db: sqlite3.Connection, trip: dict, legs: bool = False) -> dict:
    """A trip with its stops in time order (and, with ``legs``, the route between each stop
    and the next in the trip's travel mode, with totals)."""
    stops = _stops(db, trip["trip_id"])
    record = {**trip, "weekday": WEEKDAYS[weekday(trip["date"])],
              "stops": [{k: s[k] for k in ("place_id", "name", "arrive_at")} for s in stops]}
    if legs:
        out, km, minutes = [], 0.0, 0
        for a, b in zip(stops, stops[1:]):
            distance, duration = route((a["lat"], a["lon"]), (b["lat"], b["lon"]),
                                       trip["travel_mode"])
            out.append({"from_place_id": a["place_id"], "to_place_id": b["place_id"],
                        "distance_km": distance, "duration_min": duration})
            km, minutes = km + distance, minutes + duration
        record.update(legs=out, total_distance_km=round(km, 2), total_duration_min=minutes)
    return record


def _upcoming(trip: dict) -> None:
    if trip["date"] < TODAY:
        raise ToolError(f"The trip {trip['name']} was on {trip['date']}; only a trip of today "
                        "or later can be changed.")


# --------------------------------------------------------------------------- READ


@tool(Category.READ, returns={".": UserId})
def find_user_by_email(db, email: str) -> str:
    """Find a user's id by the email address of their maps account. Use it to authenticate
    the user before anything else.

    Args:
        email: The user's email address, such as 'nora.kim12@example.com'.
    """
    return find_id(db, "users", "user_id", "email", email.strip().lower(),
                   "No user found with this email address.")


@tool(Category.READ, returns={".": UserId})
def find_user_by_username(db, username: str) -> str:
    """Find a user's id by their maps username. Use it to authenticate the user before
    anything else.

    Args:
        username: The user's username, such as 'nkim42'.
    """
    return find_id(db, "users", "user_id", "username", username.strip().lower(),
                   "No user found with this username.")


@tool(Category.READ, returns={"user_id": UserId, "claimed_places.place_id": PlaceId})
def get_user_profile(db, user_id: UserId) -> dict:
    """Get a user's profile: name, email, home city, how many lists, reviews and trips they
    have, and the businesses they have claimed as owner.

    Args:
        user_id: The user's id, such as 'usr_a1b2c3d4'.
    """
    row = _user(db, user_id)
    keys = ("user_id", "first_name", "last_name", "email", "username", "home_city",
            "member_since")
    counts = db.execute("SELECT (SELECT count(*) FROM saved_lists WHERE user_id = ?), "
                        "(SELECT count(*) FROM reviews WHERE user_id = ?), "
                        "(SELECT count(*) FROM trips WHERE user_id = ?)",
                        (user_id, user_id, user_id)).fetchone()
    claimed = fetch_dicts(db, ("place_id", "name", "city"),
                          "SELECT place_id, name, city FROM places WHERE owner_id = ? "
                          "ORDER BY rowid", (user_id,))
    return {**dict(zip(keys, row)), "lists": counts[0], "reviews": counts[1],
            "trips": counts[2], "claimed_places": claimed}


@tool(Category.READ, returns={"places.place_id": PlaceId})
def search_places(db, query: str = "", city: str = "", category: str = "") -> dict:
    """Search places by words of their name and/or by category, optionally in one city. At
    most 20 results, best rated first.

    Args:
        query: Words the place's name contains, case-insensitive (empty: any name).
        city: Only places of this city: Austin, Denver, Seattle, Boston, Chicago or Portland
            (empty: every city).
        category: Only places of this category: restaurant, cafe, bar, museum, park, hotel,
            supermarket, pharmacy, gas_station, gym, library or bakery (empty: any).
    """
    query = " ".join(query.split())
    if not query and not category:
        raise ToolError("Give some words of the name or a category to search for.")
    if category and category not in CATEGORIES:
        raise ToolError(f"Unknown category {category[:40]!r}; use one of "
                        f"{', '.join(CATEGORIES)}.")
    if city and city not in CITIES:
        raise ToolError(f"Unknown city {city[:40]!r}; the maps cover {', '.join(CITIES)}.")
    rows = db.execute(
        f"SELECT {', '.join(_PLACE_COLUMNS)} FROM places WHERE instr(lower(name), lower(?)) > 0 "
        "AND (? = '' OR city = ?) AND (? = '' OR category = ?) "
        "ORDER BY coalesce(rating, 0) DESC, name LIMIT ?",
        (query, city, city, category, category, MAX_RESULTS)).fetchall()
    return {"query": query, "city": city, "category": category,
            "places": [_summary(dict(zip(_PLACE_COLUMNS, r))) for r in rows]}


@tool(Category.READ, returns={"place_id": PlaceId, "owner_id": UserId})
def get_place(db, place_id: PlaceId) -> dict:
    """Get one place: category, address, coordinates, phone, price level, business status,
    rating and review count, the user who claimed it as its owner (if any), and its weekly
    opening hours.

    Args:
        place_id: The place's id, such as 'plc_k3j9x0p2'.
    """
    place = _place(db, place_id)
    place["opening_hours"] = _hours_record(hours_of(db, place_id))
    return place


@tool(Category.READ, returns={"place_id": PlaceId})
def check_open(db, place_id: PlaceId, date: str, time: str) -> dict:
    """Check whether a place is open on a date at a time of day, with its hours that day.

    Args:
        place_id: The place's id.
        date: The day, as YYYY-MM-DD.
        time: The time of day, as HH:MM (24-hour clock).
    """
    place = _place(db, place_id)
    day = weekday(check_date(date, "date"))
    _check_time(time, "time")
    hours = hours_of(db, place_id)
    span = hours.get(day)
    operating = place["status"] == "operating"
    return {"place_id": place_id, "name": place["name"], "date": date,
            "weekday": WEEKDAYS[day], "time": time, "status": place["status"],
            "hours": None if span is None else {"opens": span[0], "closes": span[1]},
            "open": operating and is_open(hours, day, time)}


@tool(Category.READ, returns={"place_id": PlaceId, "places.place_id": PlaceId})
def search_nearby(db, place_id: PlaceId, category: str = "", radius_km: float = 1.5) -> dict:
    """Find the places near a place (straight-line distance), nearest first, optionally of
    one category. At most 20 results.

    Args:
        place_id: The place to search around.
        category: Only places of this category (empty: any).
        radius_km: The search radius in km, more than 0 and at most 10.
    """
    center = _place(db, place_id)
    if not 0 < radius_km <= MAX_RADIUS_KM:
        raise ToolError(f"radius_km must be more than 0 and at most {MAX_RADIUS_KM:g}.")
    if category and category not in CATEGORIES:
        raise ToolError(f"Unknown category {category[:40]!r}; use one of "
                        f"{', '.join(CATEGORIES)}.")
    rows = db.execute(f"SELECT {', '.join(_PLACE_COLUMNS)} FROM places WHERE city = ? "
                      "AND place_id != ? AND (? = '' OR category = ?) ORDER BY rowid",
                      (center["city"], place_id, category, category)).fetchall()
    found = []
    for row in rows:
        place = dict(zip(_PLACE_COLUMNS, row))
        km = round(great_circle_km(center["lat"], center["lon"], place["lat"], place["lon"]), 2)
        if km <= radius_km:
            found.append({**_summary(place), "distance_km": km})
    found.sort(key=lambda p: (p["distance_km"], p["name"]))
    return {"place_id": place_id, "radius_km": radius_km, "places": found[:MAX_RESULTS]}


@tool(Category.READ, returns={"origin_place_id": PlaceId, "destination_place_id": PlaceId})
def get_route(db, origin_place_id: PlaceId, destination_place_id: PlaceId,
              travel_mode: TravelMode) -> dict:
    """Get the route between two places of the same city by a travel mode: its distance (km,
    two decimals) and duration (minutes).

    Args:
        origin_place_id: The place the route starts at.
        destination_place_id: The place the route ends at.
        travel_mode: 'driving', 'walking', 'cycling' or 'transit'.
    """
    a, b = _place(db, origin_place_id), _place(db, destination_place_id)
    if a["place_id"] == b["place_id"]:
        raise ToolError("The origin and the destination must be different places.")
    if a["city"] != b["city"]:
        raise ToolError(f"Routes are planned within one city; {a['name']} is in {a['city']} "
                        f"and {b['name']} in {b['city']}.")
    distance, minutes = route((a["lat"], a["lon"]), (b["lat"], b["lon"]), travel_mode)
    return {"origin_place_id": a["place_id"], "origin": a["name"],
            "destination_place_id": b["place_id"], "destination": b["name"],
            "travel_mode": travel_mode, "distance_km": distance, "duration_min": minutes}


@tool(Category.READ, returns={"user_id": UserId, "lists.list_id": ListId,
                              "lists.places.place_id": PlaceId})
def list_saved_lists(db, user_id: UserId) -> dict:
    """List a user's saved lists with the places in each (name, city, note, date added).

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    ids = [r[0] for r in db.execute("SELECT list_id FROM saved_lists WHERE user_id = ? "
                                    "ORDER BY rowid", (user_id,))]
    lists = []
    for list_id in ids:
        record = _list_record(db, _list(db, list_id))
        del record["user_id"]
        lists.append(record)
    return {"user_id": user_id, "lists": lists}


@tool(Category.READ, returns={"place_id": PlaceId, "reviews.review_id": ReviewId,
                              "reviews.user_id": UserId})
def list_place_reviews(db, place_id: PlaceId) -> dict:
    """List the reviews of a place, newest first (at most 30), with its rating.

    Args:
        place_id: The place's id.
    """
    place = _place(db, place_id)
    reviews = fetch_dicts(
        db, ("review_id", "user_id", "author", "rating", "text", "created_on"),
        "SELECT r.review_id, r.user_id, u.first_name || ' ' || substr(u.last_name, 1, 1) || "
        "'.', r.rating, r.text, r.created_on FROM reviews r JOIN users u "
        "ON u.user_id = r.user_id WHERE r.place_id = ? ORDER BY r.created_on DESC, r.rowid "
        "DESC LIMIT 30", (place_id,))
    return {"place_id": place_id, "name": place["name"], "rating": place["rating"],
            "review_count": place["review_count"], "reviews": reviews}


@tool(Category.READ, returns={"user_id": UserId, "reviews.review_id": ReviewId,
                              "reviews.place_id": PlaceId})
def list_user_reviews(db, user_id: UserId) -> dict:
    """List the reviews a user has written, with each place's name and city.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    reviews = fetch_dicts(
        db, ("review_id", "place_id", "place_name", "city", "rating", "text", "created_on",
             "updated_on"),
        "SELECT r.review_id, r.place_id, p.name, p.city, r.rating, r.text, r.created_on, "
        "r.updated_on FROM reviews r JOIN places p ON p.place_id = r.place_id "
        "WHERE r.user_id = ? ORDER BY r.rowid", (user_id,))
    return {"user_id": user_id, "reviews": reviews}


@tool(Category.READ, returns={"user_id": UserId, "trips.trip_id": TripId,
                              "trips.stops.place_id": PlaceId})
def list_trips(db, user_id: UserId) -> dict:
    """List a user's trip plans (past and upcoming): city, date, weekday, travel mode and
    the stops with their arrival times.

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    ids = [r[0] for r in db.execute("SELECT trip_id FROM trips WHERE user_id = ? "
                                    "ORDER BY rowid", (user_id,))]
    trips = []
    for trip_id in ids:
        record = _trip_record(db, _trip(db, trip_id))
        del record["user_id"]
        trips.append(record)
    return {"user_id": user_id, "trips": trips}


@tool(Category.READ, returns={"trip_id": TripId, "stops.place_id": PlaceId})
def get_trip(db, trip_id: TripId) -> dict:
    """Get a trip plan with its stops in time order and the route of each leg (from a stop
    to the next in the trip's travel mode), with the total distance and travel time.

    Args:
        trip_id: The trip's id, such as 'trp_m2n4b6v8'.
    """
    return _trip_record(db, _trip(db, trip_id), legs=True)


@tool(Category.READ, returns={"user_id": UserId, "reports.report_id": "report_id",
                              "reports.place_id": PlaceId})
def list_place_reports(db, user_id: UserId) -> dict:
    """List the reports of wrong place data a user has filed, with their status (pending,
    accepted or rejected).

    Args:
        user_id: The user's id.
    """
    _user(db, user_id)
    reports = fetch_dicts(
        db, ("report_id", "place_id", "place_name", "issue", "detail", "status", "created_on"),
        "SELECT r.report_id, r.place_id, p.name, r.issue, r.detail, r.status, r.created_on "
        "FROM place_reports r JOIN places p ON p.place_id = r.place_id WHERE r.user_id = ? "
        "ORDER BY r.rowid", (user_id,))
    return {"user_id": user_id, "reports": reports}


transfer_to_human_agents = human_transfer_tool(
    "Transfer the user to a human agent, with a summary of their issue. Only transfer if "
    "the user explicitly asks for a human agent, or if the request cannot be handled with "
    "the policy and the available tools.",
    "A summary of the user's issue.")


# -------------------------------------------------------------------------- WRITE


@tool(Category.WRITE, returns={"list_id": ListId, "user_id": UserId}, writes=("list_id",))
def create_list(db, user_id: UserId, name: str) -> dict:
    """Create an empty saved list for a user (at most 20 lists, names unique per user).
    Confirm with the user (explicit yes) before calling.

    Args:
        user_id: The user's id.
        name: The list's name, at most 40 characters.
    """
    _user(db, user_id)
    name = _check_name(name, "list")
    if db.execute("SELECT 1 FROM saved_lists WHERE user_id = ? AND lower(name) = lower(?)",
                  (user_id, name)).fetchone():
        raise ToolError(f"You already have a list named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM saved_lists WHERE user_id = ?",
                          (user_id,)).fetchone()
    if count >= MAX_LISTS:
        raise ToolError(f"A user has at most {MAX_LISTS} lists; delete one first.")
    list_id = counted_id(db, "saved_lists", "list_id", "lst_")
    db.execute("INSERT INTO saved_lists (list_id, user_id, name, created_on) VALUES "
               "(?, ?, ?, ?)", (list_id, user_id, name, TODAY))
    return _list_record(db, _list(db, list_id))


@tool(Category.WRITE, returns={"list_id": ListId, "places.place_id": PlaceId},
      writes=("list_id",))
def save_place(db, list_id: ListId, place_id: PlaceId, note: str = "") -> dict:
    """Save a place to one of the user's lists, with an optional note (a list holds a place
    once, at most 100 places). Confirm with the user (explicit yes) before calling.

    Args:
        list_id: The list's id.
        place_id: The place's id.
        note: An optional note, at most 1000 characters.
    """
    saved = _list(db, list_id)
    place = _place(db, place_id)
    note = note.strip()
    if len(note) > MAX_TEXT:
        raise ToolError(f"The note may have at most {MAX_TEXT} characters.")
    if db.execute("SELECT 1 FROM saved_places WHERE list_id = ? AND place_id = ?",
                  (list_id, place_id)).fetchone():
        raise ToolError(f"{place['name']} is already in the list {saved['name']}.")
    (count,) = db.execute("SELECT count(*) FROM saved_places WHERE list_id = ?",
                          (list_id,)).fetchone()
    if count >= MAX_LIST_PLACES:
        raise ToolError(f"A list holds at most {MAX_LIST_PLACES} places.")
    db.execute("INSERT INTO saved_places (list_id, place_id, note, added_on) VALUES "
               "(?, ?, ?, ?)", (list_id, place_id, note, TODAY))
    return _list_record(db, saved)


@tool(Category.WRITE, returns={"list_id": ListId}, writes=("list_id",))
def remove_saved_place(db, list_id: ListId, place_id: PlaceId) -> dict:
    """Remove a place from one of the user's lists. Confirm with the user (explicit yes)
    before calling.

    Args:
        list_id: The list's id.
        place_id: The place's id.
    """
    saved = _list(db, list_id)
    place = _place(db, place_id)
    if not db.execute("SELECT 1 FROM saved_places WHERE list_id = ? AND place_id = ?",
                      (list_id, place_id)).fetchone():
        raise ToolError(f"{place['name']} is not in the list {saved['name']}.")
    db.execute("DELETE FROM saved_places WHERE list_id = ? AND place_id = ?",
               (list_id, place_id))
    return _list_record(db, saved)


@tool(Category.WRITE, returns={"list_id": ListId}, writes=("list_id",))
def delete_list(db, list_id: ListId) -> dict:
    """Delete one of the user's lists and the places saved in it. Confirm with the user
    (explicit yes) before calling.

    Args:
        list_id: The list's id.
    """
    saved = _list(db, list_id)
    db.execute("DELETE FROM saved_places WHERE list_id = ?", (list_id,))
    db.execute("DELETE FROM saved_lists WHERE list_id = ?", (list_id,))
    return {"list_id": list_id, "name": saved["name"], "deleted": True}


@tool(Category.WRITE, returns={"review_id": ReviewId, "place_id": PlaceId},
      writes=("review_id", "place_id"))
def add_review(db, place_id: PlaceId, user_id: UserId, rating: int, text: str) -> dict:
    """Post a user's review of a place: one review per user and place, never of a business
    the user has claimed, never of a permanently closed place. The place's rating is
    updated. Confirm with the user (explicit yes) before calling.

    Args:
        place_id: The place's id.
        user_id: The reviewer (the authenticated user).
        rating: The number of stars, 1 to 5.
        text: The review, at most 1000 characters.
    """
    place = _place(db, place_id)
    _user(db, user_id)
    if not 1 <= rating <= 5:
        raise ToolError(f"The rating must be 1 to 5 stars, got {rating}.")
    text = _check_text(text, "review text")
    if place["owner_id"] == user_id:
        raise ToolError(f"User {user_id} has claimed {place['name']} as its owner; owners "
                        "may not review their own business.")
    if place["status"] == "permanently_closed":
        raise ToolError(f"{place['name']} is permanently closed and takes no new reviews.")
    if db.execute("SELECT 1 FROM reviews WHERE place_id = ? AND user_id = ?",
                  (place_id, user_id)).fetchone():
        raise ToolError(f"You have already reviewed {place['name']}; edit that review "
                        "instead.")
    review_id = counted_id(db, "reviews", "review_id", "rev_")
    db.execute("INSERT INTO reviews (review_id, place_id, user_id, rating, text, created_on, "
               "updated_on) VALUES (?, ?, ?, ?, ?, ?, NULL)",
               (review_id, place_id, user_id, int(rating), text, TODAY))
    _rerate(db, place_id)
    return {**_review(db, review_id), "place_rating": _place(db, place_id)["rating"]}


@tool(Category.WRITE, returns={"review_id": ReviewId, "place_id": PlaceId},
      writes=("review_id", "place_id"))
def edit_review(db, review_id: ReviewId, rating: int, text: str = "") -> dict:
    """Change the rating (and optionally the text) of a review. The place's rating is
    updated. Confirm with the user (explicit yes) before calling.

    Args:
        review_id: The review's id.
        rating: The new number of stars, 1 to 5.
        text: The new text (empty: keep the text).
    """
    review = _review(db, review_id)
    if not 1 <= rating <= 5:
        raise ToolError(f"The rating must be 1 to 5 stars, got {rating}.")
    new_text = _check_text(text, "review text") if text.strip() else review["text"]
    if int(rating) == review["rating"] and new_text == review["text"]:
        raise ToolError("The review already has this rating and text.")
    db.execute("UPDATE reviews SET rating = ?, text = ?, updated_on = ? WHERE review_id = ?",
               (int(rating), new_text, TODAY, review_id))
    _rerate(db, review["place_id"])
    return {**_review(db, review_id),
            "place_rating": _place(db, review["place_id"])["rating"]}


@tool(Category.WRITE, returns={"review_id": ReviewId, "place_id": PlaceId},
      writes=("review_id", "place_id"))
def delete_review(db, review_id: ReviewId) -> dict:
    """Delete a review. The place's rating is updated. Confirm with the user (explicit yes)
    before calling.

    Args:
        review_id: The review's id.
    """
    review = _review(db, review_id)
    db.execute("DELETE FROM reviews WHERE review_id = ?", (review_id,))
    _rerate(db, review["place_id"])
    return {"review_id": review_id, "place_id": review["place_id"], "deleted": True}


@tool(Category.WRITE, returns={"report_id": "report_id", "place_id": PlaceId},
      writes=("report_id",))
def report_place_issue(db, place_id: PlaceId, user_id: UserId, issue: Issue,
                       detail: str) -> dict:
    """File a report that a place's data is wrong (the maps team reviews it; it starts
    pending). A user has at most one pending report per place and issue. Confirm with the
    user (explicit yes) before calling.

    Args:
        place_id: The place's id.
        user_id: The user filing it (the authenticated user).
        issue: 'wrong_hours', 'wrong_phone', 'wrong_address', 'permanently_closed',
            'duplicate' or 'other'.
        detail: What is wrong and what is right, at most 1000 characters.
    """
    place = _place(db, place_id)
    _user(db, user_id)
    detail = _check_text(detail, "detail")
    if db.execute("SELECT 1 FROM place_reports WHERE place_id = ? AND user_id = ? AND issue = ? "
                  "AND status = 'pending'", (place_id, user_id, issue)).fetchone():
        raise ToolError(f"You already have a pending {issue} report on {place['name']}.")
    report_id = counted_id(db, "place_reports", "report_id", "rpt_")
    db.execute("INSERT INTO place_reports (report_id, place_id, user_id, issue, detail, status, "
               "created_on) VALUES (?, ?, ?, ?, ?, 'pending', ?)",
               (report_id, place_id, user_id, issue, detail, TODAY))
    return {"report_id": report_id, "place_id": place_id, "place_name": place["name"],
            "issue": issue, "detail": detail, "status": "pending", "created_on": TODAY}


@tool(Category.WRITE, returns={"trip_id": TripId, "user_id": UserId}, writes=("trip_id",))
def create_trip(db, user_id: UserId, name: str, city: str, date: str,
                travel_mode: TravelMode) -> dict:
    """Create an empty trip plan: a day in a city (today or later) and a travel mode. Trip
    names are unique per user, who has at most 30 trips. Confirm with the user (explicit yes) before calling.

    Args:
        user_id: The user's id.
        name: The trip's name, at most 40 characters.
        city: Austin, Denver, Seattle, Boston, Chicago or Portland.
        date: The day of the trip, as YYYY-MM-DD (today or later).
        travel_mode: 'driving', 'walking', 'cycling' or 'transit'.
    """
    _user(db, user_id)
    name = _check_name(name, "trip")
    if city not in CITIES:
        raise ToolError(f"Unknown city {city[:40]!r}; the maps cover {', '.join(CITIES)}.")
    if check_date(date, "date") < TODAY:
        raise ToolError(f"A trip is planned for today ({TODAY}) or later.")
    if db.execute("SELECT 1 FROM trips WHERE user_id = ? AND lower(name) = lower(?)",
                  (user_id, name)).fetchone():
        raise ToolError(f"You already have a trip named {name!r}.")
    (count,) = db.execute("SELECT count(*) FROM trips WHERE user_id = ?", (user_id,)).fetchone()
    if count >= MAX_TRIPS:
        raise ToolError(f"A user has at most {MAX_TRIPS} trips.")
    trip_id = counted_id(db, "trips", "trip_id", "trp_")
    db.execute("INSERT INTO trips (trip_id, user_id, name, city, date, travel_mode) VALUES "
               "(?, ?, ?, ?, ?, ?)", (trip_id, user_id, name, city, date, travel_mode))
    return _trip_record(db, _trip(db, trip_id))


@tool(Category.WRITE, returns={"trip_id": TripId, "stops.place_id": PlaceId},
      writes=("trip_id",), needs=("trip_id",))
def add_trip_stop(db, trip_id: TripId, place_id: PlaceId, arrive_at: str) -> dict:
    """Add a stop to an upcoming trip: an operating place of the trip's city and the time
    the user arrives there (one stop per time, at most 10 stops). Check the place's opening
    hours first (see the policy). Confirm with the user (explicit yes) before calling.

    Args:
        trip_id: The trip's id.
        place_id: The place's id.
        arrive_at: The arrival time, as HH:MM (24-hour clock).
    """
    trip = _trip(db, trip_id)
    place = _place(db, place_id)
    _check_time(arrive_at, "arrive_at")
    _upcoming(trip)
    if place["city"] != trip["city"]:
        raise ToolError(f"{place['name']} is in {place['city']}; this trip is in "
                        f"{trip['city']}.")
    if place["status"] != "operating":
        raise ToolError(f"{place['name']} is {place['status'].replace('_', ' ')}.")
    stops = _stops(db, trip_id)
    if any(s["place_id"] == place_id for s in stops):
        raise ToolError(f"{place['name']} is already a stop of this trip.")
    if any(s["arrive_at"] == arrive_at for s in stops):
        raise ToolError(f"The trip already has a stop at {arrive_at}.")
    if len(stops) >= MAX_STOPS:
        raise ToolError(f"A trip has at most {MAX_STOPS} stops.")
    db.execute("INSERT INTO trip_stops (trip_id, place_id, arrive_at) VALUES (?, ?, ?)",
               (trip_id, place_id, arrive_at))
    return _trip_record(db, trip)


@tool(Category.WRITE, returns={"trip_id": TripId}, writes=("trip_id",))
def remove_trip_stop(db, trip_id: TripId, place_id: PlaceId) -> dict:
    """Remove a stop from an upcoming trip. Confirm with the user (explicit yes) before
    calling.

    Args:
        trip_id: The trip's id.
        place_id: The place of the stop.
    """
    trip = _trip(db, trip_id)
    place = _place(db, place_id)
    _upcoming(trip)
    if not db.execute("SELECT 1 FROM trip_stops WHERE trip_id = ? AND place_id = ?",
                      (trip_id, place_id)).fetchone():
        raise ToolError(f"{place['name']} is not a stop of this trip.")
    db.execute("DELETE FROM trip_stops WHERE trip_id = ? AND place_id = ?", (trip_id, place_id))
    return _trip_record(db, trip)


@tool(Category.WRITE, returns={"trip_id": TripId}, writes=("trip_id",))
def set_trip_travel_mode(db, trip_id: TripId, travel_mode: TravelMode) -> dict:
    """Change how the user gets around on an upcoming trip. Confirm with the user (explicit
    yes) before calling.

    Args:
        trip_id: The trip's id.
        travel_mode: 'driving', 'walking', 'cycling' or 'transit'.
    """
    trip = _trip(db, trip_id)
    _upcoming(trip)
    if trip["travel_mode"] == travel_mode:
        raise ToolError(f"The trip is already planned for {travel_mode}.")
    db.execute("UPDATE trips SET travel_mode = ? WHERE trip_id = ?", (travel_mode, trip_id))
    trip["travel_mode"] = travel_mode
    return _trip_record(db, trip, legs=True)

