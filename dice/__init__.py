"""Dice Chess (in progress)."""
