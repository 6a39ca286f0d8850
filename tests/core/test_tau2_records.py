"""The name and address records of tau2's retail and airline data."""

from tool_gym.core.tau2_records import address_record, name_record


def test_tau2_records_key_order():
    assert list(name_record("A", "B")) == ["first_name", "last_name"]
    assert list(address_record("1 Main", "", "C", "US", "CA", "9")) == [
        "address1", "address2", "city", "country", "state", "zip"]
