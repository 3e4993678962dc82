"""Benchmarks: commands that play many games with an advisor and print figures (never timed unit tests)."""
