"""The proposal intent of an airline need: what a proposal must name, with the user's
other reservations and payment methods as rivals."""

from __future__ import annotations

from dataclasses import replace

from ...core.proposals import Intent, Param
from ...core.taskkit import SampleContext
from ...core.task_model import Constraint


def with_intent(ctx: SampleContext, c: Constraint) -> Constraint:
    """``c`` with its intent: a confirm group naming a reservation or a payment method
    becomes a parameter whose rivals are the user's other reservations or methods."""
    if not c.confirm_terms or c.intent is not None:
        return c
    user = ctx.view
    base = Intent.from_terms(c.confirm_terms)
    reservations = [r.reservation_id for r in user.reservations]
    methods = {m.id: m for m in user.methods}
    named = {t for group in c.confirm_terms for t in group}  # every intended value
    params = []
    for p, group in zip(base.params, c.confirm_terms):
        ids = set(group)
        if ids & set(reservations):
            own = [user.by_id[i].key for i in ids if i in user.by_id]
            forms = (*p.forms, *(tuple(k) for k in own if k))

            def res_forms(r: str) -> tuple:  # by id, or by route and first date
                key = user.by_id[r].key
                return (r, tuple(key)) if key and key not in own else (r,)

            p = Param("reservation", forms, tuple(res_forms(r) for r in reservations
                                                  if r not in named))
        elif ids & set(methods):
            p = Param("payment_method", p.forms, tuple(
                (m.id, str(m.last_four)) if m.source == "credit_card" and m.last_four
                else (m.id,) for i, m in methods.items() if i not in named))
        params.append(p)
    return replace(c, intent=Intent(tuple(params), base.opposite))
