"""Trading: a brokerage with investors' individual, joint and IRA accounts, linked banks,
stock and ETF quotes, holdings, market and limit orders, deposits and withdrawals,
dividends, watchlists and price alerts.
"""

from __future__ import annotations

from ...core.domain import Domain, EnvSpec
from . import io, tools
from .generate import generate
from .invariants import invariants
from .tasks import TASKS

DOMAIN = Domain.from_package(
    __name__, tools=tools, io=io, generate=generate, invariants=invariants, tasks=TASKS,
    transfer_tool="transfer_to_human_agents",
    envs=(EnvSpec("ToolTrading-v0", 100,
                  "accb935a8479e1376d06425b7d383b20e59f72f5ff064a9d289d063b0ddf9932"),),
)
