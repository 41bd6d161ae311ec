"""Rules of the duel: see engine/duel.py for the map of files."""
