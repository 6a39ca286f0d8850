"""Domains: one folder each, registered in ``tool_gym.core.domain.DOMAINS``."""
