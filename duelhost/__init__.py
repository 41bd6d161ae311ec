"""duelhost: a Python duel core that runs the real YGOPro card scripts unmodified."""

__version__ = "0.1.0"
