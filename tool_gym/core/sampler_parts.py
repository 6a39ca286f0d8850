"""Parts that the samplers of several :class:`~tool_gym.core.taskkit.RuleTaskKit` domains
share: samplers by name, the user described by one column or a login by email or username,
claimed descriptions, a description out of several forms, and write needs with their steps."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Sequence

from .actions import ToolCall
from .taskkit import Sampler, SampleContext, write_steps
from .task_model import Constraint, Description, PlanStep


#: The closing message of a write where the agent offers more help.
DONE_HELP = "Done. Is there anything else I can help you with?"


def proposed_write(reads: Sequence[ToolCall], proposal: str,
                   call: ToolCall) -> tuple[PlanStep, ...]:
    """:func:`write_steps` whose proposal ends with "Shall I proceed?" and whose closing
    message is :data:`DONE_HELP`."""
    return write_steps(reads, f"{proposal} Shall I proceed?", call, DONE_HELP)


def identify_by(ctx: SampleContext, column: str, text: str = "{}", *, table: str = "users",
                key: str = "user_id") -> Description | None:
    """The user described by their ``column`` (an email, a username), proven unique;
    ``text`` is formatted with the value (``"my email is {}"``)."""
    value = ctx.rows(f"SELECT {column} FROM {table} WHERE {key} = ?", (ctx.user_id,))[0][0]
    return ctx.describe("user", text.format(value), {column: value}, ctx.user_id,
                        f"SELECT {key} FROM {table} WHERE {column} = ?", (value,))


def describe_address(ctx: SampleContext, address_id: str, label: str) -> Description | None:
    """The user's address by its label ("my home address"), in a schema whose
    ``addresses`` have ``customer_id`` and a unique ``label`` per customer."""
    return ctx.describe("address", f"{label} address", {"label": label}, address_id,
                        "SELECT address_id FROM addresses WHERE customer_id = ? AND label = ?",
                        (ctx.user_id, label))


def describe_payment(ctx: SampleContext, method_id: str, kind: str, brand: str,
                     last4: str) -> Description | None:
    """The user's payment method as they name it ("Visa card ending in 4242", "PayPal
    account"), in a schema whose ``payment_methods`` have ``customer_id``, ``brand``
    and ``last4``."""
    text = ("PayPal account" if kind == "paypal" else f"gift card ending in {last4}"
            if kind == "gift_card" else f"{brand} card ending in {last4}")
    return ctx.describe(
        "payment_method", text, {"brand": brand, "last4": last4}, method_id,
        "SELECT payment_method_id FROM payment_methods WHERE customer_id = ? AND brand = ? "
        "AND last4 = ?", (ctx.user_id, brand, last4))


def by_name(*samplers: Sampler) -> dict[str, Sampler]:
    """Samplers keyed by their function's name (the constraint type), in order."""
    return {s.__name__: s for s in samplers}


def claimed(ctx: SampleContext, rows: Iterable[Any],
            describe: Callable[[Any], Description | None],
            keys: Callable[[Any], tuple] = lambda row: (row[0],),
            usable: Callable[[Any], bool] = lambda row: True) -> Iterator[tuple[Any, Description]]:
    """The ``usable`` rows that ``describe`` describes (not ``None``) and whose ``keys``
    this constraint claims, each with its description; a sampler takes the first."""
    for row in rows:
        if usable(row):
            ref = describe(row)
            if ref is not None and ctx.claim(*keys(row)):
                yield row, ref


@dataclass(frozen=True)
class Login:
    """A user who identifies by email or by username (one draw picks which), and the
    lookup tools that authenticate them.

    Attributes:
        table / column: the users' table and its id column.
        email_tool / username_tool: the lookups by ``email`` and by ``username``.
        email_words: how the user introduces their email (``"my email is"``).
        username_first: the draw's lower half picks the username (else the email).
    """

    table: str
    column: str
    email_tool: str
    username_tool: str
    email_words: str = "my email is"
    username_first: bool = False

    def kit_keywords(self) -> dict[str, Any]:
        """The kit's keywords for its users, identity and authentication."""
        tools = (self.email_tool, self.username_tool)
        return {"users_table": self.table, "user_column": self.column,
                "identify": self.identify, "auth_call": self.auth_call,
                "auth_tools": tools[::-1] if self.username_first else tools}

    def identify(self, ctx: SampleContext) -> Description | None:
        by_email = (ctx.rng.random() < 0.5) != self.username_first
        column, words = (("email", self.email_words) if by_email
                         else ("username", "my username is"))
        return identify_by(ctx, column, words + " {}", table=self.table, key=self.column)

    def auth_call(self, identity: Description) -> ToolCall:
        if "email" in identity.fields:
            return ToolCall(self.email_tool, {"email": identity.fields["email"]})
        return ToolCall(self.username_tool, {"username": identity.fields["username"]})


def describe_any(ctx: SampleContext, entity: str, value: Any,
                 options: Sequence[tuple[str, dict, str, tuple]]) -> Description | None:
    """The first of ``options`` (``text, fields, query, params``), tried in a random order,
    that describes ``value`` uniquely (see ``SampleContext.describe``)."""
    for text, fields, query, params in ctx.shuffled(options):
        found = ctx.describe(entity, text, fields, value, query, params)
        if found is not None:
            return found
    return None


def write_need(kind: str, args: dict, refs: dict, call: ToolCall, target: str, terms: tuple,
               say: tuple, proposal: str, reads: tuple, expect: tuple) -> Constraint:
    """A write need whose arguments record the reference ``call``: reads, a proposal
    naming every confirm term, the write, a closing."""
    return Constraint(
        kind, {**args, "call": {"name": call.name, "arguments": dict(call.arguments)}}, refs,
        writes=((call.name, target),), confirm_terms=terms, say=say,
        solution=(*reads, PlanStep(say=f"{proposal} Shall I proceed?",
                                     expects_confirmation=True),
                  PlanStep(call=call), PlanStep(say=DONE_HELP)),
        expect=expect)
