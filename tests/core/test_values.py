"""Canonical values: equal values in any common writing read the same."""

import pytest

from tool_gym.core.values import (canonical, date_forms, extract, kind_of, names, number_form,
                                  readings, values)


@pytest.mark.parametrize("text", ["$1,202.50", "1202.5 dollars", "USD 1,202.50",
                                  "**$1,202.50**", "`1202.50` USD", "US$ 1202.5"])
def test_money_forms(text):
    assert extract(text)["amount"] == {"1202.50"}


@pytest.mark.parametrize("text,value", [("1,202.00", "1202"), ("85.4", "85.40"),
                                        ("2.1250", "2.125"), ("007", "7")])
def test_number_form(text, value):
    assert number_form(text) == value


@pytest.mark.parametrize("text,n", [("eleven", "11"), ("twenty-five", "25"),
                                    ("one hundred and two", "102"), ("three thousand", "3000"),
                                    ("Ninety nine", "99")])
def test_number_words(text, n):
    assert extract(f"there are {text} of them")["number"] == {n}


def test_number_words_keep_separate_numbers_and_pronoun_one():
    assert extract("two and three")["number"] == {"2", "3"}
    assert extract("the one you want, one of them")["number"] == set()


@pytest.mark.parametrize("text", ["November 14, 1983", "Nov 14 1983", "14 November 1983",
                                  "11/14/1983", "1983/11/14", "1983-11-14", "Nov. 14th, 1983",
                                  "the 14th of November, 1983", "1983-11-14T10:00:00"])
def test_dates(text):
    assert extract(f"born {text}.")["date"] == {"1983-11-14"}
    assert extract(f"born {text}.")["number"] == set()


def test_digits_inside_dates_ids_times_words_are_not_numbers():
    found = extract("On June 3 at 10:30 am order #W0001234 (HAT123, acc_12) was the 3rd")
    assert found["number"] == set()
    assert found["date"] == {"--06-03"}
    assert found["time"] == {"10:30"}
    assert found["id"] == {"#w0001234", "hat123", "acc_12"}


def test_times():
    assert extract("2:30 PM, 10am, 9:05")["time"] == {"14:30", "10:00", "09:05"}


def test_markdown_and_spelling():
    text = "## Order\n- **Status:** `Canceled`\n| a | b |\n|---|---|\n"
    assert canonical(text) == "order status: cancelled a b"
    assert extract("It is In Progress; won\u2019t fix; on time")["status"] == {
        "in_progress", "wont_fix", "on_time"}
    assert canonical("A \u2014 B \u201cquoted\u201d") == 'a - b "quoted"'


def test_names_equivalences():
    assert names("The total was $1,202.", "1202")
    assert names("The total was $1,202.00", "1202.00")
    assert names("eleven unread emails", "11")
    assert names("Your birthday is November 14, 1983", "1983-11-14")
    assert names("It was canceled.", "cancelled")
    assert names("The room is **Atlas Room**.", "Atlas Room")
    assert not names("It costs $17", "7")
    assert not names("June 3", "3")
    assert not names("The Atlas Roomy", "Atlas Room")


def test_a_day_without_its_year_names_the_full_date():
    for text in ("Jun 28", "June 28th", "28 June", "the 28th of June", "**Jun 28**"):
        assert names(text, "2024-06-28"), text
        assert names(text, "1983-06-28"), text  # the year is not stated, so not contradicted
    for text in ("Jun 29", "July 28", "June 28, 2023"):
        assert not names(text, "2024-06-28"), text
    assert date_forms("2024-06-28") == {"2024-06-28", "--06-28"}
    assert date_forms("--06-28") == {"--06-28"} and date_forms("2024-06") == {"2024-06"}


def test_readings_of_inline_markdown():
    assert readings("plain $5") == ["plain $5"]
    assert readings("**report**.pdf and `x`") == ["**report**.pdf and `x`", "report.pdf and x"]
    assert names(readings("**$1,202**.50")[1], "1202.50")
    assert not names("**$1,202**.50", "1202.50")  # read as written, the cents are apart


def test_kinds():
    assert [kind_of(v) for v in ("1202.50", "11", "1983-11-14", "cancelled", "#W0000001",
                                 "Room Atlas", "14:30")] == [
        "amount", "number", "date", "status", "id", "text", "time"]
    assert values("$5 and 7 and 2.50", "amount") == {"5", "2.50"}


def test_adversarial_text_is_handled():
    # shapes that make backtracking patterns explode; these must finish and stay sane
    for chunk in ("1,", "# ", "**", "11/", "[a](", "jan 1 ", "$1"):
        extract(chunk * 20000)
    assert extract("nine " * 20000)["number"] == {"9"}
    assert extract("one and " * 20000)["number"] == {"1"}
