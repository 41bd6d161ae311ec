"""The duel core: cards, effects, zones, the processor. Pure Python; never imports lupa."""
