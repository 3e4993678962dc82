"""Patience Lens: rules engines, advisors and the live assistant for Sir Tommy and Poker Patience."""

__version__ = "0.1.0"
