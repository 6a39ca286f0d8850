"""Checked reads of imported JSON values."""

from __future__ import annotations

import pytest

from tool_gym.core.json_fields import (
    as_int,
    as_list,
    as_map,
    as_number,
    as_str,
    as_str_list,
    check_key,
)


def test_values_of_the_expected_type_pass():
    assert as_int(3, "x") == 3 and as_int(3.0, "x") == 3 and type(as_int(3.0, "x")) is int
    assert as_number(2, "x") == 2.0 and type(as_number(2, "x")) is float
    assert as_str("s", "x") == "s"
    assert as_map({}, "x") == {} and as_list([], "x") == []
    assert as_str_list(None, "x") is None and as_str_list(["é"], "x") == '["é"]'
    check_key("a", "a", "x")


@pytest.mark.parametrize("read, value, message", [
    (as_int, 1.5, "where: expected an integer, got 1.5"),
    (as_int, True, "where: expected an integer, got True"),
    (as_number, "1", "where: expected a number, got '1'"),
    (as_str, 1, "where: expected a string, got 1"),
    (as_map, [], "where: expected a JSON object, got list"),
    (as_list, {}, "where: expected a JSON array, got dict"),
    (as_str_list, [1], "where: expected a list of strings or null, got [1]"),
])
def test_wrong_values_name_where_they_were(read, value, message):
    with pytest.raises(ValueError) as error:
        read(value, "where")
    assert str(error.value) == message


def test_check_key():
    with pytest.raises(ValueError, match="map key 'a' differs from the record's id 'b'"):
        check_key("a", "b", "users")
