"""The 14 airline tools on the tiny database: success paths, every error path in the spec's
check order (airline.md section 2.3), the quirks of section 2.4, the fixed clock and the
new-id rules, and "a failed call changes nothing"."""

from __future__ import annotations


import pytest

from tool_gym.core.sandbox import Sandbox
from tool_gym.core.tools import Category
from tool_gym.domains.airline import DOMAIN, tools

from ..calls import fails, ok
from .conftest import ALICE, BOB, CARL, NOW


def call(box: Sandbox, name: str, **arguments):
    return box.call(name, arguments)


def reservation(box, rid):
    return ok(box, "get_reservation_details", reservation_id=rid)


def user(box, uid):
    return ok(box, "get_user_details", user_id=uid)


def seats(box, number, date):
    return box.export()["flights"][number]["dates"][date]["available_seats"]


def booking(**overrides) -> dict:
    """A valid booking for alice: JFK->SEA via ORD on 2024-05-20, economy, 2 passengers,
    insured, one paid bag: (120 + 110) * 2 + 30 * 2 + 50 = 570."""
    args = {
        "user_id": "alice_ng_1001", "origin": "JFK", "destination": "SEA",
        "flight_type": "one_way", "cabin": "economy",
        "flights": [{"flight_number": "HAT001", "date": "2024-05-20"},
                    {"flight_number": "HAT002", "date": "2024-05-20"}],
        "passengers": [dict(ALICE), dict(BOB)],
        "payment_methods": [{"payment_id": "certificate_1000003", "amount": 250},
                            {"payment_id": "gift_card_1000002", "amount": 200},
                            {"payment_id": "credit_card_1000001", "amount": 120}],
        "total_baggages": 3, "nonfree_baggages": 1, "insurance": "yes",
    }
    args.update(overrides)
    return args


def flights_arg(*pairs):
    return [{"flight_number": n, "date": d} for n, d in pairs]


# ---------------------------------------------------------------------------- schemas

SPEC_PARAMETERS = {
    "get_user_details": [("user_id", "string")],
    "get_reservation_details": [("reservation_id", "string")],
    "list_all_airports": [],
    "search_direct_flight": [("origin", "string"), ("destination", "string"),
                             ("date", "string")],
    "search_onestop_flight": [("origin", "string"), ("destination", "string"),
                              ("date", "string")],
    "get_flight_status": [("flight_number", "string"), ("date", "string")],
    "book_reservation": [("user_id", "string"), ("origin", "string"), ("destination", "string"),
                         ("flight_type", "string"), ("cabin", "string"), ("flights", "array"),
                         ("passengers", "array"), ("payment_methods", "array"),
                         ("total_baggages", "integer"), ("nonfree_baggages", "integer"),
                         ("insurance", "string")],
    "cancel_reservation": [("reservation_id", "string")],
    "update_reservation_baggages": [("reservation_id", "string"), ("total_baggages", "integer"),
                                    ("nonfree_baggages", "integer"), ("payment_id", "string")],
    "update_reservation_flights": [("reservation_id", "string"), ("cabin", "string"),
                                   ("flights", "array"), ("payment_id", "string")],
    "update_reservation_passengers": [("reservation_id", "string"), ("passengers", "array")],
    "send_certificate": [("user_id", "string"), ("amount", "integer")],
    "calculate": [("expression", "string")],
    "transfer_to_human_agents": [("summary", "string")],
}
CATEGORIES = {
    "book_reservation": Category.WRITE, "cancel_reservation": Category.WRITE,
    "update_reservation_baggages": Category.WRITE, "update_reservation_flights": Category.WRITE,
    "update_reservation_passengers": Category.WRITE, "send_certificate": Category.WRITE,
    "calculate": Category.GENERIC, "transfer_to_human_agents": Category.GENERIC,
}


def test_tool_names_parameters_and_categories_match_the_spec():
    toolbox = DOMAIN.toolbox
    assert sorted(toolbox.names) == sorted(SPEC_PARAMETERS)
    for t in toolbox:
        props = t.parameters["properties"]
        assert [(k, v["type"]) for k, v in props.items()] == SPEC_PARAMETERS[t.name], t.name
        assert t.required == list(props), t.name  # every parameter is required
        assert t.category == CATEGORIES.get(t.name, Category.READ), t.name
        assert t.description and all(v.get("description") for v in props.values()), t.name
    book = toolbox["book_reservation"].parameters["properties"]
    assert book["flight_type"]["enum"] == ["one_way", "round_trip"]
    assert book["cabin"]["enum"] == ["basic_economy", "economy", "business"]
    assert book["insurance"]["enum"] == ["yes", "no"]
    assert book["flights"]["items"] == {"type": "object"}
    flights = toolbox["update_reservation_flights"].parameters["properties"]
    assert flights["cabin"]["enum"] == ["basic_economy", "economy", "business"]


def test_entity_annotations_and_write_targets():
    toolbox = DOMAIN.toolbox
    assert toolbox["get_reservation_details"].input_entities == {"reservation_id": "reservation_id"}
    assert toolbox["book_reservation"].input_entities["user_id"] == "user_id"
    assert next(iter(toolbox["book_reservation"].input_entities)) == "user_id"
    assert toolbox["update_reservation_flights"].input_entities == {
        "reservation_id": "reservation_id", "payment_id": "payment_id"}
    assert toolbox["get_flight_status"].input_entities == {"flight_number": "flight_number"}
    assert toolbox["search_direct_flight"].input_entities == {"origin": "airport",
                                                              "destination": "airport"}
    assert toolbox["get_user_details"].output_entities["reservations"] == "reservation_id"
    assert "reservation_id" in toolbox["book_reservation"].writes


# -------------------------------------------------------------------------- READ tools


def test_get_user_details(tiny_sandbox):
    u = user(tiny_sandbox, "alice_ng_1001")
    assert list(u) == ["user_id", "name", "address", "email", "dob", "payment_methods",
                       "saved_passengers", "membership", "reservations"]
    assert u["user_id"] == "alice_ng_1001" and u["membership"] == "gold"
    methods = u["payment_methods"]
    assert list(methods) == ["credit_card_1000001", "gift_card_1000002", "certificate_1000003",
                             "gift_card_1000004"]
    assert list(methods["credit_card_1000001"]) == ["source", "id", "brand", "last_four"]
    assert methods["gift_card_1000002"] == {"source": "gift_card", "id": "gift_card_1000002",
                                            "amount": 500.0}
    assert type(methods["certificate_1000003"]["amount"]) is float
    assert u["saved_passengers"] == [BOB]
    assert u["reservations"] == ["RES001", "RES002", "RES003"]
    assert user(tiny_sandbox, "carl_ode_2002")["address"]["address2"] is None
    fails(tiny_sandbox, "get_user_details", "user nobody not found", user_id="nobody")


def test_get_reservation_details(tiny_sandbox, tiny_data):
    r = reservation(tiny_sandbox, "RES001")
    assert list(r) == ["reservation_id", "user_id", "origin", "destination", "flight_type",
                       "cabin", "flights", "passengers", "payment_history", "created_at",
                       "total_baggages", "nonfree_baggages", "insurance", "status"]
    assert list(r["flights"][0]) == ["flight_number", "origin", "destination", "date", "price"]
    assert r == tiny_data["reservations"]["RES001"]
    assert r["status"] is None
    fails(tiny_sandbox, "get_reservation_details", "reservation NOPE00 not found",
          reservation_id="NOPE00")


def test_list_all_airports(tiny_sandbox):
    airports = ok(tiny_sandbox, "list_all_airports")
    assert [a["iata"] for a in airports] == [
        "SFO", "JFK", "LAX", "ORD", "DFW", "DEN", "SEA", "ATL", "MIA", "BOS", "PHX", "IAH",
        "LAS", "MCO", "EWR", "CLT", "MSP", "DTW", "PHL", "LGA"]
    assert airports[0] == {"iata": "SFO", "city": "San Francisco"}
    assert airports[-1] == {"iata": "LGA", "city": "LaGuardia"}


def test_search_direct_flight(tiny_sandbox):
    found = ok(tiny_sandbox, "search_direct_flight", origin="JFK", destination="ORD",
               date="2024-05-20")
    assert [f["flight_number"] for f in found] == ["HAT001", "HAT004"]  # file order
    assert found[0] == {
        "flight_number": "HAT001", "origin": "JFK", "destination": "ORD", "status": "available",
        "scheduled_departure_time_est": "08:00:00", "scheduled_arrival_time_est": "10:00:00",
        "date": None,
        "available_seats": {"basic_economy": 5, "economy": 3, "business": 1},
        "prices": {"basic_economy": 60, "economy": 120, "business": 300},
    }
    assert list(found[0]) == ["flight_number", "origin", "destination", "status",
                              "scheduled_departure_time_est", "scheduled_arrival_time_est",
                              "date", "available_seats", "prices"]
    # not available on that date (flying / landed / cancelled / missing) -> nothing
    for date in ("2024-05-15", "2024-05-10", "2024-05-14", "2024-05-19", "bad"):
        assert ok(tiny_sandbox, "search_direct_flight", origin="JFK", destination="ORD",
                  date=date) == []
    assert ok(tiny_sandbox, "search_direct_flight", origin="XXX", destination="ORD",
              date="2024-05-20") == []


def test_search_direct_flight_shows_current_seats(tiny_sandbox):
    ok(tiny_sandbox, "book_reservation", **booking())
    found = ok(tiny_sandbox, "search_direct_flight", origin="JFK", destination="ORD",
               date="2024-05-20")
    assert found[0]["available_seats"]["economy"] == 1


def test_search_onestop_flight(tiny_sandbox):
    found = ok(tiny_sandbox, "search_onestop_flight", origin="JFK", destination="SEA",
               date="2024-05-20")
    pairs = [[(f["flight_number"], f["date"]) for f in pair] for pair in found]
    # HAT003 leaves ORD before HAT001 arrives; HAT004 arrives after midnight, so its
    # connection is on the next day and must leave at or after "01:30:00+1" (as strings)
    assert pairs == [[("HAT001", "2024-05-20"), ("HAT002", "2024-05-20")],
                     [("HAT004", "2024-05-20"), ("HAT005", "2024-05-21")]]
    assert found[1][1]["prices"] == {"basic_economy": 54, "economy": 104, "business": 204}
    assert found[0][0]["status"] == "available"
    assert ok(tiny_sandbox, "search_onestop_flight", origin="JFK", destination="XXX",
              date="2024-05-20") == []


def test_search_onestop_next_day_is_not_zero_padded(tiny_sandbox):
    # tau2 quirk: "2024-05-" + str(8 + 1) == "2024-05-9", not a date key: no connection
    # even though HAT005 is available on 2024-05-09.
    assert ok(tiny_sandbox, "search_direct_flight", origin="ORD", destination="SEA",
              date="2024-05-09") != []
    assert ok(tiny_sandbox, "search_onestop_flight", origin="JFK", destination="SEA",
              date="2024-05-08") == []


def test_get_flight_status(tiny_sandbox):
    expected = {("HAT001", "2024-05-10"): "landed", ("HAT001", "2024-05-14"): "cancelled",
                ("HAT001", "2024-05-15"): "flying", ("HAT002", "2024-05-15"): "on time",
                ("HAT004", "2024-05-15"): "delayed", ("HAT001", "2024-05-20"): "available"}
    for (number, date), status in expected.items():
        result = call(tiny_sandbox, "get_flight_status", flight_number=number, date=date)
        assert result.ok and result.content == status  # a bare string, not JSON
    fails(tiny_sandbox, "get_flight_status", "flight HAT999 not found", flight_number="HAT999",
          date="2024-05-20")
    message = fails(tiny_sandbox, "get_flight_status", "not found on date",
                    flight_number="HAT001", date="2024-05-19")
    assert "HAT001" in message


# ------------------------------------------------------------------------- GENERIC


def test_calculate(tiny_sandbox):
    assert call(tiny_sandbox, "calculate",
                expression="2 * ((350 - 122) + (499 - 127))").content == "1200.0"
    assert call(tiny_sandbox, "calculate", expression="10 / 3").content == "3.33"
    assert call(tiny_sandbox, "calculate", expression="(1 + 2) * -3").content == "-9.0"
    for bad in ("1 / 0", "2 +", "abs(1)", "__import__('os')", "9**9**9", "1e5", ""):
        fails(tiny_sandbox, "calculate", "", expression=bad)


def test_calculate_uses_the_shared_evaluator():
    from tool_gym.core import common_tools

    assert tools.calculate is common_tools.calculate


def test_transfer_to_human_agents(tiny_sandbox):
    before = tiny_sandbox.state_hash()
    assert call(tiny_sandbox, "transfer_to_human_agents", summary="help").content == \
        "Transfer successful"
    assert tiny_sandbox.state_hash() == before
    assert DOMAIN.transfer_tool == "transfer_to_human_agents"


# ---------------------------------------------------------------- book_reservation


def test_book_reservation_success(tiny_sandbox):
    box = tiny_sandbox
    before = {k: seats(box, "HAT001", "2024-05-20")[k] for k in ("economy", "business")}
    r = ok(box, "book_reservation", **booking())
    assert r == {
        "reservation_id": "HATHAT", "user_id": "alice_ng_1001", "origin": "JFK",
        "destination": "SEA", "flight_type": "one_way", "cabin": "economy",
        "flights": [{"flight_number": "HAT001", "origin": "JFK", "destination": "ORD",
                     "date": "2024-05-20", "price": 120},
                    {"flight_number": "HAT002", "origin": "ORD", "destination": "SEA",
                     "date": "2024-05-20", "price": 110}],
        "passengers": [ALICE, BOB],
        "payment_history": [{"payment_id": "certificate_1000003", "amount": 250},
                            {"payment_id": "gift_card_1000002", "amount": 200},
                            {"payment_id": "credit_card_1000001", "amount": 120}],
        "created_at": NOW, "total_baggages": 3, "nonfree_baggages": 1, "insurance": "yes",
        "status": None,
    }
    assert reservation(box, "HATHAT") == r
    u = user(box, "alice_ng_1001")
    assert u["reservations"] == ["RES001", "RES002", "RES003", "HATHAT"]
    assert "certificate_1000003" not in u["payment_methods"]  # consumed entirely
    assert u["payment_methods"]["gift_card_1000002"]["amount"] == 300.0
    assert seats(box, "HAT001", "2024-05-20")["economy"] == before["economy"] - 2
    assert seats(box, "HAT001", "2024-05-20")["business"] == before["business"]
    assert seats(box, "HAT002", "2024-05-20")["economy"] == 3
    assert box.check_integrity() == []


def test_book_reservation_uses_the_fixed_clock_and_flight_endpoints(tiny_sandbox):
    r = ok(tiny_sandbox, "book_reservation", **booking(
        origin="MIA", destination="LAX", flight_type="round_trip", insurance="no",
        nonfree_baggages=0, passengers=[dict(ALICE)],
        flights=flights_arg(("HAT007", "2024-05-20")),
        payment_methods=[{"payment_id": "credit_card_1000001", "amount": 150}]))
    assert r["created_at"] == "2024-05-15T15:00:00"
    # trip endpoints as given (not checked); segment endpoints from the flight record
    assert (r["origin"], r["destination"], r["flight_type"]) == ("MIA", "LAX", "round_trip")
    assert (r["flights"][0]["origin"], r["flights"][0]["destination"]) == ("JFK", "SEA")


def test_new_reservation_ids_then_too_many(tiny_sandbox):
    box = tiny_sandbox
    small = booking(passengers=[dict(CARL)], user_id="carl_ode_2002", insurance="no",
                    nonfree_baggages=0, flights=flights_arg(("HAT007", "2024-05-20")),
                    payment_methods=[{"payment_id": "credit_card_2000001", "amount": 150}])
    ids = [ok(box, "book_reservation", **small)["reservation_id"] for _ in range(3)]
    assert ids == ["HATHAT", "HATHAU", "HATHAV"]
    assert user(box, "carl_ode_2002")["reservations"] == ["RES004", *ids]
    fails(box, "book_reservation", "too many reservations", **small)


def test_new_reservation_id_is_the_first_free_one(tiny_data):
    from tool_gym.core.sandbox import Template, build_database

    data = tiny_data
    taken = dict(data["reservations"]["RES004"], reservation_id="HATHAT")
    data["reservations"]["HATHAT"] = taken
    data["users"]["carl_ode_2002"]["reservations"].append("HATHAT")
    box = Sandbox(Template(DOMAIN, build_database(DOMAIN, data=data), ("airline", "x")))
    small = booking(passengers=[dict(CARL)], user_id="carl_ode_2002", insurance="no",
                    nonfree_baggages=0, flights=flights_arg(("HAT007", "2024-05-20")),
                    payment_methods=[{"payment_id": "credit_card_2000001", "amount": 150}])
    assert ok(box, "book_reservation", **small)["reservation_id"] == "HATHAU"
    assert ok(box, "book_reservation", **small)["reservation_id"] == "HATHAV"
    fails(box, "book_reservation", "too many reservations", **small)


def test_book_argument_objects(tiny_sandbox):
    box = tiny_sandbox
    # step 1 comes before the user lookup
    fails(box, "book_reservation", "flights[1] is missing 'date'",
          **booking(user_id="nobody", flights=[{"flight_number": "HAT001", "date": "2024-05-20"},
                                               {"flight_number": "HAT002"}]))
    fails(box, "book_reservation", "flights[0].flight_number must be a string",
          **booking(flights=[{"flight_number": 1, "date": "2024-05-20"}]))
    fails(box, "book_reservation", "passengers[1] is missing 'dob'",
          **booking(user_id="nobody", passengers=[dict(ALICE), {"first_name": "B",
                                                                "last_name": "N"}]))
    fails(box, "book_reservation", "payment_methods[0].amount must be an integer",
          **booking(user_id="nobody", payment_methods=[{"payment_id": "x", "amount": 120.5}]))
    fails(box, "book_reservation", "payment_methods[0].amount must be an integer",
          **booking(payment_methods=[{"payment_id": "credit_card_1000001", "amount": "570"}]))
    fails(box, "book_reservation", "payment_methods[0] is missing 'amount'",
          **booking(payment_methods=[{"payment_id": "credit_card_1000001"}]))
    fails(box, "book_reservation", "payment_methods[0].amount must be an integer",
          **booking(payment_methods=[{"payment_id": "credit_card_1000001", "amount": True}]))
    # a float with zero fraction counts as the integer; extra keys are dropped
    r = ok(box, "book_reservation", **booking(
        passengers=[dict(ALICE, gender="f"), dict(BOB)],
        flights=[{"flight_number": "HAT001", "date": "2024-05-20", "price": 1},
                 {"flight_number": "HAT002", "date": "2024-05-20"}],
        payment_methods=[{"payment_id": "credit_card_1000001", "amount": 570.0, "note": 1}]))
    assert r["passengers"][0] == ALICE
    assert r["payment_history"] == [{"payment_id": "credit_card_1000001", "amount": 570}]
    assert type(r["payment_history"][0]["amount"]) is int


def test_book_schema_errors(tiny_sandbox):
    """Enums, JSON types and unknown/missing parameters are rejected by the schema, before
    any tool-level check (documented divergence in order from tau2's step 4)."""
    box = tiny_sandbox
    for bad in ({"cabin": "first"}, {"flight_type": "multi_city"}, {"insurance": "maybe"},
                {"total_baggages": 1.5}, {"nonfree_baggages": "1"}, {"flights": {}},
                {"passengers": [["Alice"]]}, {"origin": None}):
        before = box.state_hash()
        result = box.call("book_reservation", booking(user_id="nobody", **bad))
        assert not result.ok and result.stage == 1, bad  # not "user not found" (stage 2)
        assert box.state_hash() == before
    args = booking()
    del args["insurance"]
    assert box.call("book_reservation", args).stage == 1
    assert box.call("book_reservation", booking(extra=1)).stage == 1


def test_book_check_order(tiny_sandbox):
    box = tiny_sandbox
    bad_everything = booking(flights=flights_arg(("HAT999", "2024-05-20")),
                             payment_methods=[{"payment_id": "nope", "amount": 1}])
    fails(box, "book_reservation", "user nobody not found", **dict(bad_everything,
                                                                   user_id="nobody"))
    # flights in order: lookup, date, status, seats; the first failing flight wins
    fails(box, "book_reservation", "flight HAT999 not found", **bad_everything)
    fails(box, "book_reservation", "flight HAT001 not found on date 2024-05-19",
          **booking(flights=flights_arg(("HAT001", "2024-05-19"), ("HAT999", "2024-05-20"))))
    for date in ("2024-05-10", "2024-05-14", "2024-05-15"):
        fails(box, "book_reservation", f"flight HAT001 not available on date {date}",
              **booking(flights=flights_arg(("HAT002", "2024-05-20"), ("HAT001", date))))
    fails(box, "book_reservation", "not enough seats on flight HAT001",
          **booking(cabin="business"))  # 1 business seat, 2 passengers
    # payments in order: method found, then balance (each entry against the balance)
    fails(box, "book_reservation", "payment method credit_card_2000001 not found",
          **booking(payment_methods=[{"payment_id": "credit_card_2000001", "amount": 570}]))
    fails(box, "book_reservation", "not enough balance in payment method gift_card_1000004",
          **booking(payment_methods=[{"payment_id": "gift_card_1000004", "amount": 31},
                                     {"payment_id": "nope", "amount": 539}]))
    fails(box, "book_reservation", "not enough balance in payment method certificate_1000003",
          **booking(payment_methods=[{"payment_id": "certificate_1000003", "amount": 251},
                                     {"payment_id": "credit_card_1000001", "amount": 319}]))
    message = fails(box, "book_reservation", "payment total mismatch",
                    **booking(payment_methods=[{"payment_id": "credit_card_1000001",
                                                "amount": 569}]))
    assert "570" in message and "569" in message


def test_book_with_exact_seats_and_exact_balance(tiny_sandbox):
    box = tiny_sandbox
    r = ok(box, "book_reservation", **booking(
        cabin="business", passengers=[dict(ALICE)], insurance="no", nonfree_baggages=0,
        flights=flights_arg(("HAT001", "2024-05-20")),
        payment_methods=[{"payment_id": "gift_card_1000004", "amount": 30},
                         {"payment_id": "credit_card_1000001", "amount": 270}]))
    assert r["flights"][0]["price"] == 300
    assert seats(box, "HAT001", "2024-05-20")["business"] == 0
    assert user(box, "alice_ng_1001")["payment_methods"]["gift_card_1000004"]["amount"] == 0.0


def test_book_not_checked_by_code(tiny_sandbox):
    """Duplicate segments are priced and seat-decremented twice; no passengers, no flights,
    negative bags and unbalanced trips are accepted (spec 2.3 "Not checked by code")."""
    box = tiny_sandbox
    r = ok(box, "book_reservation", **booking(
        cabin="business", passengers=[dict(ALICE)], insurance="no", nonfree_baggages=0,
        flights=flights_arg(("HAT001", "2024-05-20"), ("HAT001", "2024-05-20")),
        payment_methods=[{"payment_id": "credit_card_1000001", "amount": 600}]))
    assert [s["price"] for s in r["flights"]] == [300, 300]
    assert seats(box, "HAT001", "2024-05-20")["business"] == -1  # 1 seat, taken twice
    assert any("seats" in p for p in box.check_integrity())
    r = ok(box, "book_reservation", **booking(
        passengers=[], flights=[], insurance="yes", nonfree_baggages=-1, total_baggages=-3,
        payment_methods=[{"payment_id": "credit_card_1000001", "amount": -50}]))
    assert r["reservation_id"] == "HATHAU" and r["passengers"] == [] and r["flights"] == []


def test_book_gift_card_listed_twice_can_go_negative(tiny_sandbox):
    """Quirk 2.4.5: each entry is checked alone against the balance."""
    box = tiny_sandbox
    ok(box, "book_reservation", **booking(payment_methods=[
        {"payment_id": "gift_card_1000004", "amount": 25},
        {"payment_id": "gift_card_1000004", "amount": 25},
        {"payment_id": "credit_card_1000001", "amount": 520}]))
    assert user(box, "alice_ng_1001")["payment_methods"]["gift_card_1000004"]["amount"] == -20.0
    assert any("amounts must be non-negative" in p for p in box.check_integrity())


def test_book_certificate_listed_twice_is_a_partial_failure(tiny_sandbox):
    """Quirk 2.4.6: deductions before the second occurrence stay; no reservation, no seats."""
    box = tiny_sandbox
    seats_before = seats(box, "HAT001", "2024-05-20")
    result = call(box, "book_reservation", **booking(payment_methods=[
        {"payment_id": "gift_card_1000004", "amount": 20},
        {"payment_id": "certificate_1000003", "amount": 200},
        {"payment_id": "certificate_1000003", "amount": 200},
        {"payment_id": "gift_card_1000002", "amount": 150}]))
    assert not result.ok and result.stage == 2
    assert "certificate_1000003" in result.content
    methods = user(box, "alice_ng_1001")["payment_methods"]
    assert methods["gift_card_1000004"]["amount"] == 10.0      # deducted before the failure
    assert "certificate_1000003" not in methods                # removed at first occurrence
    assert methods["gift_card_1000002"]["amount"] == 500.0     # after the failure: untouched
    assert "HATHAT" not in box.export()["reservations"]
    assert user(box, "alice_ng_1001")["reservations"] == ["RES001", "RES002", "RES003"]
    assert seats(box, "HAT001", "2024-05-20") == seats_before
    # the sandbox keeps working (the toolbox's savepoint was handled cleanly)
    assert not box.db.in_transaction
    assert ok(box, "cancel_reservation", reservation_id="RES003")["status"] == "cancelled"


def test_partial_failure_outside_the_toolbox_keeps_the_same_effects(tiny_template):
    box = Sandbox(tiny_template)
    with pytest.raises(Exception):
        tools.book_reservation.fn(box.db, **booking(payment_methods=[
            {"payment_id": "certificate_1000003", "amount": 250},
            {"payment_id": "certificate_1000003", "amount": 250},
            {"payment_id": "credit_card_1000001", "amount": 70}]))
    assert "certificate_1000003" not in user(box, "alice_ng_1001")["payment_methods"]


# --------------------------------------------------------------- cancel_reservation


def test_cancel_reservation(tiny_sandbox):
    box = tiny_sandbox
    state = box.export()
    r = ok(box, "cancel_reservation", reservation_id="RES002")
    assert r["status"] == "cancelled"
    assert r["payment_history"] == [{"payment_id": "gift_card_1000002", "amount": 570},
                                    {"payment_id": "gift_card_1000002", "amount": -570}]
    after = box.export()
    # bookkeeping only: no balance refund, no seat release, the user's list unchanged
    assert after["users"] == state["users"]
    assert after["flights"] == state["flights"]
    # no status check: a second cancel appends a doubled round
    r = ok(box, "cancel_reservation", reservation_id="RES002")
    assert [p["amount"] for p in r["payment_history"]] == [570, -570, -570, 570]
    fails(box, "cancel_reservation", "reservation NOPE00 not found", reservation_id="NOPE00")


# ------------------------------------------------------ update_reservation_baggages


def test_update_baggages_with_gift_card(tiny_sandbox):
    box = tiny_sandbox
    r = ok(box, "update_reservation_baggages", reservation_id="RES001", total_baggages=4,
           nonfree_baggages=2, payment_id="gift_card_1000002")
    assert (r["total_baggages"], r["nonfree_baggages"]) == (4, 2)
    assert r["payment_history"][-1] == {"payment_id": "gift_card_1000002", "amount": 100}
    assert user(box, "alice_ng_1001")["payment_methods"]["gift_card_1000002"]["amount"] == 400.0


def test_update_baggages_free_or_decrease_appends_nothing(tiny_sandbox):
    box = tiny_sandbox
    r = ok(box, "update_reservation_baggages", reservation_id="RES004", total_baggages=3,
           nonfree_baggages=1, payment_id="credit_card_2000001")
    assert len(r["payment_history"]) == 1 and r["total_baggages"] == 3
    r = ok(box, "update_reservation_baggages", reservation_id="RES004", total_baggages=0,
           nonfree_baggages=0, payment_id="credit_card_2000001")  # decrease: accepted, no refund
    assert (r["total_baggages"], r["nonfree_baggages"]) == (0, 0)
    assert r["payment_history"] == [{"payment_id": "credit_card_2000001", "amount": 200}]
    assert box.check_integrity() == []


def test_update_baggages_check_order(tiny_sandbox):
    box = tiny_sandbox
    fails(box, "update_reservation_baggages", "reservation NOPE00 not found",
          reservation_id="NOPE00", total_baggages=1, nonfree_baggages=1, payment_id="nope")
    fails(box, "update_reservation_baggages", "payment method credit_card_2000001 not found",
          reservation_id="RES001", total_baggages=1, nonfree_baggages=1,
          payment_id="credit_card_2000001")  # another user's card
    # the payment check runs even when the price is 0
    fails(box, "update_reservation_baggages", "certificate not allowed",
          reservation_id="RES001", total_baggages=2, nonfree_baggages=0,
          payment_id="certificate_1000003")
    fails(box, "update_reservation_baggages", "insufficient gift card balance",
          reservation_id="RES001", total_baggages=3, nonfree_baggages=1,
          payment_id="gift_card_1000004")  # 30 < 50
    r = ok(box, "update_reservation_baggages", reservation_id="RES001", total_baggages=2,
           nonfree_baggages=0, payment_id="gift_card_1000004")
    assert len(r["payment_history"]) == 1  # price 0 with a gift card: passes, no entry


# ------------------------------------------------------- update_reservation_flights


def test_update_flights_keeps_old_price_when_the_cabin_is_unchanged(tiny_sandbox):
    box = tiny_sandbox
    seats_before = box.export()["flights"]
    r = ok(box, "update_reservation_flights", reservation_id="RES001", cabin="economy",
           flights=flights_arg(("HAT001", "2024-05-20"), ("HAT003", "2024-05-20")),
           payment_id="gift_card_1000002")
    # kept HAT001 at 100; HAT003 at today's economy price 115: (100 + 115 - 200) * 2 = 30
    assert r["flights"] == [
        {"flight_number": "HAT001", "origin": "JFK", "destination": "ORD",
         "date": "2024-05-20", "price": 100},
        {"flight_number": "HAT003", "origin": "ORD", "destination": "SEA",
         "date": "2024-05-20", "price": 115}]
    assert r["payment_history"][-1] == {"payment_id": "gift_card_1000002", "amount": 30}
    assert user(box, "alice_ng_1001")["payment_methods"]["gift_card_1000002"]["amount"] == 470.0
    assert box.export()["flights"] == seats_before  # seats neither taken nor released


def test_update_flights_cabin_change_reprices_every_segment(tiny_sandbox):
    box = tiny_sandbox
    r = ok(box, "update_reservation_flights", reservation_id="RES004", cabin="basic_economy",
           flights=flights_arg(("HAT007", "2024-05-20")), payment_id="credit_card_2000001")
    assert r["cabin"] == "basic_economy"
    assert r["flights"][0]["price"] == 80
    assert r["payment_history"][-1] == {"payment_id": "credit_card_2000001", "amount": -70}
    # a refund to a gift card raises its balance
    r = ok(box, "update_reservation_flights", reservation_id="RES001", cabin="basic_economy",
           flights=flights_arg(("HAT001", "2024-05-20"), ("HAT002", "2024-05-20")),
           payment_id="gift_card_1000004")
    assert [s["price"] for s in r["flights"]] == [60, 55]
    assert r["payment_history"][-1]["amount"] == (60 + 55 - 200) * 2
    assert user(box, "alice_ng_1001")["payment_methods"]["gift_card_1000004"]["amount"] == 200.0


def test_update_flights_unchanged_itinerary_costs_nothing(tiny_sandbox):
    box = tiny_sandbox
    r = ok(box, "update_reservation_flights", reservation_id="RES002", cabin="business",
           flights=flights_arg(("HAT001", "2024-05-10"), ("HAT008", "2024-05-22")),
           payment_id="credit_card_1000001")
    assert len(r["payment_history"]) == 1  # total 0: no entry
    assert [s["price"] for s in r["flights"]] == [280, 290]


def test_update_flights_check_order(tiny_sandbox):
    box = tiny_sandbox
    fails(box, "update_reservation_flights", "flights[0] is missing 'date'",
          reservation_id="NOPE00", cabin="economy", flights=[{"flight_number": "HAT001"}],
          payment_id="x")
    fails(box, "update_reservation_flights", "reservation NOPE00 not found",
          reservation_id="NOPE00", cabin="economy", flights=[], payment_id="x")
    # a cabin change needs every segment bookable: a flown segment blocks it
    fails(box, "update_reservation_flights", "flight HAT001 not available on date 2024-05-10",
          reservation_id="RES002", cabin="economy",
          flights=flights_arg(("HAT001", "2024-05-10"), ("HAT008", "2024-05-22")),
          payment_id="credit_card_1000001")
    fails(box, "update_reservation_flights", "not enough seats on flight HAT001",
          reservation_id="RES001", cabin="business",
          flights=flights_arg(("HAT001", "2024-05-20"), ("HAT002", "2024-05-20")),
          payment_id="credit_card_1000001")
    fails(box, "update_reservation_flights", "flight HAT999 not found",
          reservation_id="RES001", cabin="economy",
          flights=flights_arg(("HAT999", "2024-05-20")), payment_id="nope")
    fails(box, "update_reservation_flights", "not found on date",
          reservation_id="RES001", cabin="economy",
          flights=flights_arg(("HAT002", "2024-05-21")), payment_id="nope")
    change = dict(reservation_id="RES001", cabin="economy",
                  flights=flights_arg(("HAT007", "2024-05-21")))
    fails(box, "update_reservation_flights", "payment method nope not found", **change,
          payment_id="nope")
    fails(box, "update_reservation_flights", "certificate not allowed", **change,
          payment_id="certificate_1000003")
    # 155 * 2 - 400 = -90: a refund passes the gift card check even with a zero balance
    r = ok(box, "update_reservation_flights", **change, payment_id="gift_card_1000004")
    assert r["payment_history"][-1]["amount"] == -90
    fails(box, "update_reservation_flights", "insufficient gift card balance",
          reservation_id="RES001", cabin="business",
          flights=flights_arg(("HAT007", "2024-05-20")), payment_id="gift_card_1000004")
    assert call(box, "update_reservation_flights", reservation_id="RES001", cabin="first",
                flights=[], payment_id="x").stage == 1


def test_update_flights_is_not_limited_by_code(tiny_sandbox):
    """No basic-economy, status or endpoint checks (spec 2.3)."""
    box = tiny_sandbox
    ok(box, "cancel_reservation", reservation_id="RES003")
    r = ok(box, "update_reservation_flights", reservation_id="RES003", cabin="basic_economy",
           flights=flights_arg(("HAT007", "2024-05-20")), payment_id="credit_card_1000001")
    assert r["status"] == "cancelled" and r["flights"][0]["flight_number"] == "HAT007"
    assert r["payment_history"][-1]["amount"] == 80 - 65


# --------------------------------------------------- update_reservation_passengers


def test_update_passengers(tiny_sandbox):
    box = tiny_sandbox
    new = [dict(ALICE, dob="1980-02-04"), {"first_name": "Kim", "last_name": "Ng",
                                            "dob": "2001-01-01", "seat": "12A"}]
    r = ok(box, "update_reservation_passengers", reservation_id="RES001", passengers=new)
    assert r["passengers"] == [dict(ALICE, dob="1980-02-04"),
                               {"first_name": "Kim", "last_name": "Ng", "dob": "2001-01-01"}]
    fails(box, "update_reservation_passengers", "passengers[0] is missing 'last_name'",
          reservation_id="NOPE00", passengers=[{"first_name": "A", "dob": "x"}])
    fails(box, "update_reservation_passengers", "reservation NOPE00 not found",
          reservation_id="NOPE00", passengers=[])
    fails(box, "update_reservation_passengers", "passenger count must not change",
          reservation_id="RES001", passengers=[dict(ALICE)])
    ok(box, "cancel_reservation", reservation_id="RES003")  # no status check
    ok(box, "update_reservation_passengers", reservation_id="RES003", passengers=[dict(BOB)])


# ---------------------------------------------------------------- send_certificate


def test_send_certificate_ids_and_message(tiny_sandbox):
    box = tiny_sandbox
    for k, number in enumerate((3221322, 3221323, 3221324)):
        message = ok(box, "send_certificate", user_id="carl_ode_2002", amount=100 + k)
        assert message == (f"Certificate certificate_{number} added to user carl_ode_2002 "
                           f"with amount {100 + k}.")
    methods = user(box, "carl_ode_2002")["payment_methods"]
    assert list(methods)[-3:] == ["certificate_3221322", "certificate_3221323",
                                  "certificate_3221324"]
    assert methods["certificate_3221322"] == {"source": "certificate",
                                              "id": "certificate_3221322", "amount": 100.0}
    fails(box, "send_certificate", "too many certificates", user_id="carl_ode_2002", amount=1)
    fails(box, "send_certificate", "user nobody not found", user_id="nobody", amount=1)
    # ids are per user: another user gets the same first id
    assert "certificate_3221322" in ok(box, "send_certificate", user_id="alice_ng_1001",
                                       amount=50)


def test_send_certificate_reuses_an_id_after_the_certificate_is_used(tiny_sandbox):
    box = tiny_sandbox
    ok(box, "send_certificate", user_id="carl_ode_2002", amount=150)
    ok(box, "book_reservation", **booking(
        user_id="carl_ode_2002", passengers=[dict(CARL)], insurance="no", nonfree_baggages=0,
        flights=flights_arg(("HAT007", "2024-05-20")),
        payment_methods=[{"payment_id": "certificate_3221322", "amount": 150}]))
    assert "certificate_3221322" not in user(box, "carl_ode_2002")["payment_methods"]
    assert "certificate_3221322" in ok(box, "send_certificate", user_id="carl_ode_2002",
                                       amount=10)
    assert box.check_integrity() == []


# ---------------------------------------------------------------- failed writes


FAILING_WRITES = [
    ("book_reservation", booking(payment_methods=[{"payment_id": "credit_card_1000001",
                                                   "amount": 1}])),
    ("book_reservation", booking(cabin="business")),
    ("book_reservation", booking(flights=flights_arg(("HAT001", "2024-05-20"),
                                                     ("HAT006", "2024-05-12")))),
    ("cancel_reservation", {"reservation_id": "NOPE00"}),
    ("update_reservation_baggages", {"reservation_id": "RES001", "total_baggages": 9,
                                     "nonfree_baggages": 9, "payment_id": "gift_card_1000004"}),
    ("update_reservation_flights", {"reservation_id": "RES001", "cabin": "business",
                                    "flights": flights_arg(("HAT007", "2024-05-20")),
                                    "payment_id": "gift_card_1000004"}),
    ("update_reservation_passengers", {"reservation_id": "RES001", "passengers": []}),
    ("send_certificate", {"user_id": "nobody", "amount": 5}),
    ("send_certificate", {"user_id": "carl_ode_2002", "amount": 1.5}),
]


@pytest.mark.parametrize("name, arguments", FAILING_WRITES,
                         ids=[f"{n}-{i}" for i, (n, _) in enumerate(FAILING_WRITES)])
def test_failed_writes_change_nothing(tiny_sandbox, name, arguments):
    before = tiny_sandbox.state_hash()
    result = tiny_sandbox.call(name, arguments)
    assert not result.ok and result.content.startswith("Error: ")
    assert tiny_sandbox.state_hash() == before
    assert not tiny_sandbox.db.in_transaction


def test_writes_after_a_failure_still_work(tiny_sandbox):
    box = tiny_sandbox
    for name, arguments in FAILING_WRITES:
        box.call(name, arguments)
    assert ok(box, "book_reservation", **booking())["reservation_id"] == "HATHAT"
    assert box.check_integrity() == []


def test_sandboxes_are_isolated(tiny_template):
    a, b = Sandbox(tiny_template), Sandbox(tiny_template)
    start = b.state_hash()
    ok(a, "book_reservation", **booking())
    ok(a, "send_certificate", user_id="alice_ng_1001", amount=10)
    assert b.state_hash() == start
    assert ok(b, "book_reservation", **booking())["reservation_id"] == "HATHAT"
