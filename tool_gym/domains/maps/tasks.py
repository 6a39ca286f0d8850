"""Hidden-intent tasks of the maps domain (users' saved lists, reviews, reports and trip plans
over the places of six cities): the constraint samplers and ``TASKS``, the domain's
:class:`~tool_gym.core.taskkit.RuleTaskKit`.

A user refers to a place by its name and city, to a list or a trip by its name, to a review
by the place it is about. Writes: save a place to a list, remove one, post a review, change
a review's stars, report wrong place data, add a timed stop to a trip, change a trip's
travel mode. Questions: the route distance between two saved places by a travel mode, when
a place closes on a weekday, a place's average rating. Refusals: an owner reviewing their
own business (the tool refuses too), a trip stop at a time the place is closed (policy only:
the tool would add it).
"""

from __future__ import annotations

from ...core.actions import ToolCall
from ...core.proposals import Intent, Param
from ...core.sampler_parts import Login, by_name
from ...core.taskkit import RuleTaskKit, SampleContext, answer_steps, date_words, write_steps
from ...core.task_model import Constraint, Description, Expectation, Refusal
from .geo import WEEKDAYS, is_open, route, weekday
from .generate import REVIEW_TEXTS
from .tools import MAX_STOPS, TODAY, hours_of

ASK_IDENTITY = ("Happy to help. First, to find your account, could you tell me the email "
                "address or the username you use in the maps app?")
#: Words that name why a request is refused (any one addresses it; see ``Refusal.about``).
_OWNER_WORDS = ("owner", "owners", "own", "claimed", "your business", "your own",
                "conflict of interest", "customers")
_CLOSED_WORDS = ("closed", "open", "opens", "closes", "closing", "opening hours", "hours",
                 "not open")
STARS = {1: "1-star", 2: "2-star", 3: "3-star", 4: "4-star", 5: "5-star"}
MODE_WORDS = {"driving": "by car", "walking": "on foot", "cycling": "by bike",
              "transit": "by public transit"}
MODE_TERMS = {"driving": ("driving", "by car", "drive"), "walking": ("walking", "on foot"),
              "cycling": ("cycling", "by bike", "biking"),
              "transit": ("transit", "public transport")}
#: issue -> (what the user says, the words a proposal names it by)
ISSUES = {
    "permanently_closed": ("has shut down for good, the place is empty now",
                           ("permanently closed", "closed for good", "closed permanently",
                            "permanently_closed")),
    "wrong_phone": ("has the wrong phone number listed, nobody by that name answers",
                    ("phone",)),
    "wrong_hours": ("shows the wrong opening hours, they changed last month",
                    ("hours",)),
}


# ------------------------------------------------------------------ descriptions

def describe_place(ctx: SampleContext, place_id: str, name: str,
                   city: str) -> Description | None:
    return ctx.describe("place", f"{name} in {city}", {"place": name, "city": city}, place_id,
                        "SELECT place_id FROM places WHERE name = ? AND city = ?", (name, city))


def describe_named(ctx: SampleContext, entity: str, table: str, key: str, value: str,
                   name: str) -> Description | None:
    """A list or a trip of the user by its name."""
    return ctx.describe(entity, f"\"{name}\" {entity}", {entity: name}, value,
                        f"SELECT {key} FROM {table} WHERE user_id = ? AND name = ?",
                        (ctx.user_id, name))


def _place_forms(place_id: str, name: str, city: str) -> tuple:
    return (place_id, (name, city))


def _owned_param(ctx: SampleContext, name: str, table: str, key: str, own: str) -> Param:
    """A list or trip by its id or name; the user's other ones are its rivals."""
    rows = ctx.rows(f"SELECT {key}, name FROM {table} WHERE user_id = ? ORDER BY rowid",
                    (ctx.user_id,))
    mine = next(r for r in rows if r[0] == own)
    return Param(name, mine, tuple(r for r in rows if r[0] != own))


def _saved(ctx: SampleContext) -> list[tuple]:
    """``(list_id, list name, place_id, place name, city)`` of the user's saved places."""
    return ctx.rows("SELECT l.list_id, l.name, p.place_id, p.name, p.city FROM saved_lists l "
                    "JOIN saved_places s ON s.list_id = l.list_id JOIN places p "
                    "ON p.place_id = s.place_id WHERE l.user_id = ? ORDER BY s.rowid",
                    (ctx.user_id,))


def _search(name: str, city: str) -> ToolCall:
    return ToolCall("search_places", {"query": name, "city": city})


def _lists(ctx: SampleContext, tool: str) -> ToolCall:
    return ToolCall(tool, {"user_id": ctx.user_id})


def _upcoming_trips(ctx: SampleContext) -> list[tuple]:
    return ctx.rows("SELECT trip_id, name, city, date, travel_mode FROM trips "
                    "WHERE user_id = ? AND date >= ? ORDER BY rowid", (ctx.user_id, TODAY))


def _times() -> list[str]:
    """Arrival times a user plans (every half hour from 08:00 to 21:30)."""
    return [f"{h:02d}:{m:02d}" for h in range(8, 22) for m in (0, 30)]


# ----------------------------------------------------------------------- writes

def save_place(ctx: SampleContext) -> Constraint | None:
    (home,) = ctx.rows("SELECT home_city FROM users WHERE user_id = ?", (ctx.user_id,))[0]
    lists = ctx.rows("SELECT list_id, name FROM saved_lists WHERE user_id = ? ORDER BY rowid",
                     (ctx.user_id,))
    for list_id, list_name in ctx.shuffled(lists):
        if not ctx.claim(("list", list_id)):
            continue
        places = ctx.rows("SELECT place_id, name, city FROM places WHERE city = ? "
                          "AND status = 'operating' AND place_id NOT IN (SELECT place_id "
                          "FROM saved_places WHERE list_id = ?) ORDER BY rowid", (home, list_id))
        if not places:
            continue
        place_id, name, city = ctx.pick(places)
        p = describe_place(ctx, place_id, name, city)
        saved = describe_named(ctx, "list", "saved_lists", "list_id", list_id, list_name)
        if p is None or saved is None:
            return None
        call = ToolCall("save_place", {"list_id": list_id, "place_id": place_id})
        return Constraint(
            "save_place", dict(call.arguments), refs={"place": p, "list": saved},
            writes=(("save_place", list_id),),
            confirm_terms=((name, place_id), (list_name, list_id)),
            intent=Intent((Param("place", _place_forms(place_id, name, city)),
                           _owned_param(ctx, "list", "saved_lists", "list_id", list_id))),
            say=(f"Please save {p.text} to my {saved.text}.",
                 f"Could you add {p.text} to my {saved.text}?",
                 f"I'd like {p.text} in my {saved.text}, please."),
            solution=write_steps(
                [_lists(ctx, "list_saved_lists"), _search(name, city)],
                f"I will save {name} in {city} ({place_id}) to your list \"{list_name}\". "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM saved_places WHERE list_id = ? "
                                "AND place_id = ?", (list_id, place_id), ((1,),)),))
    return None


def remove_saved_place(ctx: SampleContext) -> Constraint | None:
    for list_id, list_name, place_id, name, city in ctx.shuffled(_saved(ctx)):
        p = describe_place(ctx, place_id, name, city)
        saved = describe_named(ctx, "list", "saved_lists", "list_id", list_id, list_name)
        if p is None or saved is None or not ctx.claim(("list", list_id), place_id):
            continue
        others = ctx.rows("SELECT p.place_id, p.name, p.city FROM saved_places s JOIN places p "
                          "ON p.place_id = s.place_id WHERE s.list_id = ? AND s.place_id != ? "
                          "ORDER BY s.rowid", (list_id, place_id))
        call = ToolCall("remove_saved_place", {"list_id": list_id, "place_id": place_id})
        return Constraint(
            "remove_saved_place", dict(call.arguments), refs={"place": p, "list": saved},
            writes=(("remove_saved_place", list_id),),
            confirm_terms=(("remove",), (name, place_id), (list_name, list_id)),
            intent=Intent((Param("action", ("remove", "take", "delete")),
                           Param("place", _place_forms(place_id, name, city),
                                 tuple(_place_forms(*o) for o in others)),
                           _owned_param(ctx, "list", "saved_lists", "list_id", list_id)),
                          opposite=("save", "add")),
            say=(f"Please take {p.text} off my {saved.text}.",
                 f"Could you remove {p.text} from my {saved.text}?",
                 f"I don't want {p.text} in my {saved.text} anymore."),
            solution=write_steps(
                [_lists(ctx, "list_saved_lists")],
                f"I will remove {name} in {city} ({place_id}) from your list \"{list_name}\". "
                "Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM saved_places WHERE list_id = ? "
                                "AND place_id = ?", (list_id, place_id), ((0,),)),))
    return None


def _stars(rating: int) -> tuple[str, ...]:
    return (STARS[rating], f"{rating} star", f"{rating} out of 5", f"{rating}/5")


def add_review(ctx: SampleContext) -> Constraint | None:
    (home,) = ctx.rows("SELECT home_city FROM users WHERE user_id = ?", (ctx.user_id,))[0]
    places = ctx.rows("SELECT place_id, name, city FROM places WHERE city = ? "
                      "AND status != 'permanently_closed' AND coalesce(owner_id, '') != ? "
                      "AND place_id NOT IN (SELECT place_id FROM reviews WHERE user_id = ?) "
                      "ORDER BY rowid", (home, ctx.user_id, ctx.user_id))
    for place_id, name, city in ctx.shuffled(places):
        p = describe_place(ctx, place_id, name, city)
        if p is None or not ctx.claim(place_id):
            continue
        rating = int(ctx.rng.integers(1, 6))
        text = ctx.pick(REVIEW_TEXTS[rating])
        call = ToolCall("add_review", {"place_id": place_id, "user_id": ctx.user_id,
                                       "rating": rating, "text": text})
        return Constraint(
            "add_review", dict(call.arguments), refs={"place": p},
            writes=(("add_review", place_id),),
            confirm_terms=((name, place_id), _stars(rating)),
            intent=Intent((Param("place", _place_forms(place_id, name, city)),
                           Param("rating", _stars(rating)))),
            say=(f"Please post a {STARS[rating]} review of {p.text} for me that says: "
                 f"\"{text}\"",
                 f"I want to review {p.text}: {rating} stars, and the text is \"{text}\"",
                 f"Could you leave {rating} stars for {p.text} with the comment \"{text}\"?"),
            solution=write_steps(
                [_search(name, city), ToolCall("get_place", {"place_id": place_id})],
                f"I will post a {STARS[rating]} review of {name} in {city} ({place_id}) "
                f"saying \"{text}\". Shall I proceed?", call),
            expect=(Expectation("SELECT rating FROM reviews WHERE place_id = ? AND user_id = ?",
                                (place_id, ctx.user_id), ((rating,),)),))
    return None


def edit_review(ctx: SampleContext) -> Constraint | None:
    reviews = ctx.rows("SELECT r.review_id, r.rating, p.place_id, p.name, p.city "
                       "FROM reviews r JOIN places p ON p.place_id = r.place_id "
                       "WHERE r.user_id = ? ORDER BY r.rowid", (ctx.user_id,))
    for review_id, old, place_id, name, city in ctx.shuffled(reviews):
        d = ctx.describe("review", f"review of {name} in {city}", {"place": name, "city": city},
                         review_id, "SELECT r.review_id FROM reviews r JOIN places p "
                         "ON p.place_id = r.place_id WHERE r.user_id = ? AND p.name = ? "
                         "AND p.city = ?", (ctx.user_id, name, city))
        if d is None or not ctx.claim(place_id):
            continue
        rating = int(ctx.pick([r for r in range(1, 6) if r != old]))
        call = ToolCall("edit_review", {"review_id": review_id, "rating": rating})
        rivals = tuple((r[0], (r[3], r[4])) for r in reviews if r[0] != review_id)
        return Constraint(
            "edit_review", dict(call.arguments), refs={"review": d},
            writes=(("edit_review", review_id),),
            confirm_terms=((name, review_id), _stars(rating)),
            intent=Intent((Param("review", (review_id, (name, city)), rivals),
                           Param("rating", _stars(rating)))),
            say=(f"Please change my {d.text} to {rating} stars.",
                 f"I'd like my {d.text} to give {rating} stars instead.",
                 f"Can you update the stars on my {d.text}? Make it {rating}."),
            solution=write_steps(
                [_lists(ctx, "list_user_reviews")],
                f"I will change your review of {name} in {city} ({review_id}) from {old} to "
                f"{rating} stars ({STARS[rating]}), keeping its text. Shall I proceed?", call),
            expect=(Expectation("SELECT rating FROM reviews WHERE review_id = ?", (review_id,),
                                ((rating,),)),))
    return None


def report_issue(ctx: SampleContext) -> Constraint | None:
    candidates = ctx.rows(
        "SELECT DISTINCT p.place_id, p.name, p.city FROM saved_lists l JOIN saved_places s "
        "ON s.list_id = l.list_id JOIN places p ON p.place_id = s.place_id "
        "WHERE l.user_id = ? AND p.status = 'operating' ORDER BY p.rowid", (ctx.user_id,))
    for place_id, name, city in ctx.shuffled(candidates):
        issue = ctx.pick(tuple(ISSUES))
        (pending,) = ctx.rows("SELECT count(*) FROM place_reports WHERE place_id = ? "
                              "AND user_id = ? AND issue = ? AND status = 'pending'",
                              (place_id, ctx.user_id, issue))[0]
        p = describe_place(ctx, place_id, name, city)
        if pending or p is None or not ctx.claim(place_id):
            continue
        words, terms = ISSUES[issue]
        detail = f"{name} {words}."
        call = ToolCall("report_place_issue", {"place_id": place_id, "user_id": ctx.user_id,
                                               "issue": issue, "detail": detail})
        others = tuple(t for i, (_, t) in ISSUES.items() if i != issue)
        return Constraint(
            "report_issue", {**call.arguments}, refs={"place": p},
            writes=(("report_place_issue", place_id),),
            confirm_terms=((name, place_id), terms),
            intent=Intent((Param("place", _place_forms(place_id, name, city)),
                           Param("issue", terms, others))),
            say=(f"I want to report that {p.text} {words}.",
                 f"Heads up: {p.text} {words}. Can you flag it?",
                 f"Please let the maps team know that {p.text} {words}."),
            solution=write_steps(
                [_lists(ctx, "list_saved_lists"), ToolCall("get_place", {"place_id": place_id})],
                f"I will report {name} in {city} ({place_id}) with the issue "
                f"{issue} ({terms[0]}): \"{detail}\". Shall I proceed?", call),
            expect=(Expectation("SELECT count(*) FROM place_reports WHERE place_id = ? "
                                "AND user_id = ? AND issue = ? AND status = 'pending'",
                                (place_id, ctx.user_id, issue), ((1,),)),))
    return None


def _open_slots(ctx: SampleContext, place_id: str, day: str, taken: set[str]) -> list[str]:
    hours = hours_of(ctx.db, place_id)
    return [t for t in _times() if is_open(hours, weekday(day), t) and t not in taken]


def add_trip_stop(ctx: SampleContext) -> Constraint | None:
    for trip_id, trip_name, city, day, _ in ctx.shuffled(_upcoming_trips(ctx)):
        stops = ctx.rows("SELECT place_id, arrive_at FROM trip_stops WHERE trip_id = ?",
                         (trip_id,))
        t = describe_named(ctx, "trip", "trips", "trip_id", trip_id, trip_name)
        if len(stops) >= MAX_STOPS or t is None or not ctx.claim(("trip", trip_id)):
            continue
        used = {s[0] for s in stops}
        places = [r for r in ctx.rows("SELECT place_id, name, city FROM places WHERE city = ? "
                                      "AND status = 'operating' AND category != 'hotel' "
                                      "ORDER BY rowid", (city,)) if r[0] not in used]
        for place_id, name, _ in ctx.shuffled(places):
            slots = _open_slots(ctx, place_id, day, {s[1] for s in stops})
            p = describe_place(ctx, place_id, name, city)
            if not slots or p is None:
                continue
            at = ctx.pick(slots)
            call = ToolCall("add_trip_stop", {"trip_id": trip_id, "place_id": place_id,
                                              "arrive_at": at})
            return Constraint(
                "add_trip_stop", dict(call.arguments), refs={"place": p, "trip": t},
                writes=(("add_trip_stop", trip_id),),
                confirm_terms=((name, place_id), (trip_name, trip_id), (at,)),
                intent=Intent((Param("place", _place_forms(place_id, name, city)),
                               _owned_param(ctx, "trip", "trips", "trip_id", trip_id),
                               Param("time", (at,)))),
                say=(f"Please add {p.text} to my {t.text}, arriving at {at}.",
                     f"On my {t.text} I want to stop at {p.text} at {at}.",
                     f"Can you put {p.text} into my {t.text}? I'll get there at {at}."),
                solution=write_steps(
                    [_lists(ctx, "list_trips"), _search(name, city),
                     ToolCall("check_open", {"place_id": place_id, "date": day, "time": at})],
                    f"{name} is open then, so I will add it ({place_id}) to your trip "
                    f"\"{trip_name}\" on {day}, arriving at {at}. Shall I proceed?", call),
                expect=(Expectation("SELECT arrive_at FROM trip_stops WHERE trip_id = ? "
                                    "AND place_id = ?", (trip_id, place_id), ((at,),)),))
        return None
    return None


def change_travel_mode(ctx: SampleContext) -> Constraint | None:
    for trip_id, trip_name, city, day, mode in ctx.shuffled(_upcoming_trips(ctx)):
        t = describe_named(ctx, "trip", "trips", "trip_id", trip_id, trip_name)
        if t is None or not ctx.claim(("trip", trip_id)):
            continue
        new = ctx.pick([m for m in MODE_WORDS if m != mode])
        call = ToolCall("set_trip_travel_mode", {"trip_id": trip_id, "travel_mode": new})
        return Constraint(
            "change_travel_mode", dict(call.arguments), refs={"trip": t},
            writes=(("set_trip_travel_mode", trip_id),),
            confirm_terms=((trip_name, trip_id), MODE_TERMS[new]),
            intent=Intent((_owned_param(ctx, "trip", "trips", "trip_id", trip_id),
                           Param("mode", MODE_TERMS[new]))),
            say=(f"For my {t.text}, I'd rather get around {MODE_WORDS[new]}.",
                 f"Please switch my {t.text} to {new}.",
                 f"Can you change my {t.text} so I travel {MODE_WORDS[new]}?"),
            solution=write_steps(
                [_lists(ctx, "list_trips")],
                f"I will change your trip \"{trip_name}\" ({trip_id}) to {new} "
                f"({MODE_WORDS[new]}). Shall I proceed?", call),
            expect=(Expectation("SELECT travel_mode FROM trips WHERE trip_id = ?", (trip_id,),
                                ((new,),)),))
    return None


# -------------------------------------------------------------------- questions

def info_route_distance(ctx: SampleContext) -> Constraint | None:
    saved = ctx.rows("SELECT DISTINCT p.place_id, p.name, p.city, p.lat, p.lon FROM saved_lists l "
                     "JOIN saved_places s ON s.list_id = l.list_id JOIN places p "
                     "ON p.place_id = s.place_id WHERE l.user_id = ? ORDER BY p.rowid",
                     (ctx.user_id,))
    pairs = [(a, b) for a in saved for b in saved if a[0] < b[0] and a[2] == b[2]]
    for a, b in ctx.shuffled(pairs):
        if ctx.rng.random() < 0.5:
            a, b = b, a
        mode = ctx.pick(tuple(MODE_WORDS))
        distance, minutes = route((a[3], a[4]), (b[3], b[4]), mode)
        pa, pb = describe_place(ctx, a[0], a[1], a[2]), describe_place(ctx, b[0], b[1], b[2])
        if distance < 1 or pa is None or pb is None or not ctx.claim(("route", a[0], b[0])):
            continue
        call = ToolCall("get_route", {"origin_place_id": a[0], "destination_place_id": b[0],
                                      "travel_mode": mode})
        how = MODE_WORDS[mode]
        return Constraint(
            "info_route_distance", dict(call.arguments), refs={"origin": pa, "destination": pb},
            answer=f"{distance:.2f}",
            say=(f"How far is it from {pa.text} to {pb.text} {how}?",
                 f"What's the distance {how} from {pa.text} to {pb.text}, in km?",
                 f"If I go {how} from {pa.text} to {pb.text}, how many km is the route?"),
            solution=answer_steps(
                [_lists(ctx, "list_saved_lists"), call],
                f"The route {how} from {a[1]} to {b[1]} is {distance:.2f} km "
                f"(about {minutes} minutes)."))
    return None


def info_closing_time(ctx: SampleContext) -> Constraint | None:
    saved = ctx.rows("SELECT DISTINCT p.place_id, p.name, p.city FROM saved_lists l "
                     "JOIN saved_places s ON s.list_id = l.list_id JOIN places p "
                     "ON p.place_id = s.place_id WHERE l.user_id = ? AND p.category != 'hotel' "
                     "AND p.status = 'operating' ORDER BY p.rowid", (ctx.user_id,))
    for place_id, name, city in ctx.shuffled(saved):
        hours = hours_of(ctx.db, place_id)
        p = describe_place(ctx, place_id, name, city)
        if not hours or p is None or not ctx.claim(place_id):
            continue
        day = int(ctx.pick(sorted(hours)))
        closes = hours[day][1]
        weekday_name = WEEKDAYS[day]
        return Constraint(
            "info_closing_time", {"place_id": place_id, "weekday": day}, refs={"place": p},
            answer=closes,
            say=(f"What time does {p.text} close on {weekday_name}s?",
                 f"Until when is {p.text} open on a {weekday_name}?",
                 f"When does {p.text} close on {weekday_name}?"),
            solution=answer_steps(
                [_lists(ctx, "list_saved_lists"), ToolCall("get_place", {"place_id": place_id})],
                f"On {weekday_name}s {name} in {city} closes at {closes}."))
    return None


def info_place_rating(ctx: SampleContext) -> Constraint | None:
    saved = ctx.rows("SELECT DISTINCT p.place_id, p.name, p.city, p.rating, p.review_count "
                     "FROM saved_lists l JOIN saved_places s ON s.list_id = l.list_id "
                     "JOIN places p ON p.place_id = s.place_id WHERE l.user_id = ? "
                     "AND p.review_count >= 3 AND p.rating * 2 != round(p.rating * 2) "
                     "ORDER BY p.rowid", (ctx.user_id,))
    for place_id, name, city, rating, count in ctx.shuffled(saved):
        p = describe_place(ctx, place_id, name, city)
        if p is None or not ctx.claim(place_id):
            continue
        return Constraint(
            "info_place_rating", {"place_id": place_id}, refs={"place": p},
            answer=f"{rating:.2f}",
            say=(f"What's the average rating of {p.text} right now?",
                 f"How many stars does {p.text} have on average?",
                 f"Can you check the current rating of {p.text}?"),
            solution=answer_steps(
                [_lists(ctx, "list_saved_lists"), ToolCall("get_place", {"place_id": place_id})],
                f"{name} in {city} has an average rating of {rating:.2f} stars from its "
                f"{count} reviews."))
    return None


# --------------------------------------------------------------------- refusals

def refuse_own_review(ctx: SampleContext) -> Constraint | None:
    owned = ctx.rows("SELECT place_id, name, city FROM places WHERE owner_id = ? "
                     "AND status != 'permanently_closed' ORDER BY rowid", (ctx.user_id,))
    for place_id, name, city in ctx.shuffled(owned):
        p = describe_place(ctx, place_id, name, city)
        if p is None or not ctx.claim(place_id):
            continue
        text = ctx.pick(REVIEW_TEXTS[5])
        return Constraint(
            "refuse_own_review",
            {"place_id": place_id, "user_id": ctx.user_id, "rating": 5, "text": text},
            refs={"place": p}, answer="cannot",
            refusal=Refusal((place_id,), about=(place_id, name, *_OWNER_WORDS)),
            say=(f"Please post a 5-star review of {p.text} saying \"{text}\"",
                 f"I want to give {p.text} five stars: \"{text}\"",
                 f"Could you leave a glowing 5-star review for {p.text}? \"{text}\""),
            solution=answer_steps(
                [_search(name, city), ToolCall("get_place", {"place_id": place_id})],
                f"I'm sorry, but I cannot post that review: you have claimed {name} in {city} "
                "as its owner, and owners may not review their own business. Reviews must "
                "come from customers."),
            expect=(Expectation("SELECT count(*) FROM reviews WHERE place_id = ? "
                                "AND user_id = ?", (place_id, ctx.user_id), ((0,),)),))
    return None


def refuse_closed_stop(ctx: SampleContext) -> Constraint | None:
    for trip_id, trip_name, city, day, _ in ctx.shuffled(_upcoming_trips(ctx)):
        t = describe_named(ctx, "trip", "trips", "trip_id", trip_id, trip_name)
        if t is None or not ctx.claim(("trip", trip_id)):
            continue
        stops = ctx.rows("SELECT place_id, arrive_at FROM trip_stops WHERE trip_id = ?",
                         (trip_id,))
        used = {s[0] for s in stops}
        times = {s[1] for s in stops}
        places = ctx.rows("SELECT place_id, name FROM places WHERE city = ? "
                          "AND status = 'operating' AND category != 'hotel' ORDER BY rowid",
                          (city,))
        for place_id, name in ctx.shuffled([r for r in places if r[0] not in used]):
            hours = hours_of(ctx.db, place_id)
            closed = [x for x in _times() if not is_open(hours, weekday(day), x)
                      and x not in times]
            p = describe_place(ctx, place_id, name, city)
            if not closed or p is None:
                continue
            at = ctx.pick(closed)
            span = hours.get(weekday(day))
            why = (f"it is closed on {WEEKDAYS[weekday(day)]}s" if span is None else
                   f"on {WEEKDAYS[weekday(day)]}s it is open only from {span[0]} to {span[1]}")
            return Constraint(
                "refuse_closed_stop",
                {"trip_id": trip_id, "place_id": place_id, "arrive_at": at},
                refs={"place": p, "trip": t}, answer="cannot",
                refusal=Refusal((trip_id, place_id),
                                about=(place_id, trip_id, name, *_CLOSED_WORDS)),
                say=(f"Please add {p.text} to my {t.text}, arriving at {at}.",
                     f"On my {t.text} I want to stop at {p.text} at {at}.",
                     f"Can you put {p.text} into my {t.text}? I'll get there at {at}."),
                solution=answer_steps(
                    [_lists(ctx, "list_trips"), _search(name, city),
                     ToolCall("check_open", {"place_id": place_id, "date": day, "time": at})],
                    f"I'm sorry, but I cannot add {name} at {at} on {date_words(day)}: {why}, "
                    "so it is closed at that time and a stop may only be planned while the "
                    "place is open."),
                expect=(Expectation("SELECT count(*) FROM trip_stops WHERE trip_id = ? "
                                    "AND place_id = ?", (trip_id, place_id), ((0,),)),))
        return None
    return None


# ------------------------------------------------------------------------ the kit

LOGIN = Login("users", "user_id", "find_user_by_email", "find_user_by_username")


def policy_violations(db, tool: str, arguments: dict) -> list[str]:
    """Policy rules a write would break: a stop planned while its place is closed (the tool
    would add it), an owner reviewing their own business (the tool refuses it too)."""
    if tool == "add_trip_stop":
        trip = db.execute("SELECT date FROM trips WHERE trip_id = ?",
                          (arguments.get("trip_id"),)).fetchone()
        at = arguments.get("arrive_at")
        if trip is not None and isinstance(at, str) and db.execute(
                "SELECT 1 FROM places WHERE place_id = ?", (arguments.get("place_id"),)
        ).fetchone() and not is_open(hours_of(db, arguments["place_id"]), weekday(trip[0]),
                                     at):
            return ["policy:closed_stop"]
    if tool == "add_review":
        row = db.execute("SELECT owner_id FROM places WHERE place_id = ?",
                         (arguments.get("place_id"),)).fetchone()
        if row is not None and row[0] is not None and row[0] == arguments.get("user_id"):
            return ["policy:own_business_review"]
    return []


_BY_USER = ("SELECT user_id FROM users WHERE user_id = ?", "user_id")
_BY_LIST = ("SELECT user_id FROM saved_lists WHERE list_id = ?", "list_id")
_BY_REVIEW = ("SELECT user_id FROM reviews WHERE review_id = ?", "review_id")
_BY_TRIP = ("SELECT user_id FROM trips WHERE trip_id = ?", "trip_id")

SAMPLERS = by_name(
    save_place, remove_saved_place, add_review, edit_review, report_issue, add_trip_stop,
    change_travel_mode, info_route_distance, info_closing_time, info_place_rating,
    refuse_own_review, refuse_closed_stop)

TASKS = RuleTaskKit(
    "maps", SAMPLERS,
    **LOGIN.kit_keywords(),
    owners={"create_list": _BY_USER, "add_review": _BY_USER, "report_place_issue": _BY_USER,
            "create_trip": _BY_USER, "save_place": _BY_LIST, "remove_saved_place": _BY_LIST,
            "delete_list": _BY_LIST, "edit_review": _BY_REVIEW, "delete_review": _BY_REVIEW,
            "add_trip_stop": _BY_TRIP, "remove_trip_stop": _BY_TRIP,
            "set_trip_travel_mode": _BY_TRIP},
    ask_identity=ASK_IDENTITY,
    identity_phrases=("Sure, {text}.", "Of course: {text}.", "Yes, {text}."),
    greetings=("Hi!", "Hello,", "Hi there.", "Hey,"),
    policy_violations=policy_violations,
)
