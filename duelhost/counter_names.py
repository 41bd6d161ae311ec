"""Counter names: counter type -> the name a player reads ("Spell Counter").

Our own table.  The names of the real cards' counters were read from the rules text of
the cards whose scripts place that counter type (the words before "Counter" in the text,
the most frequent one); the last entries are the counters of our own bundled cards.
``counter_name(0x1)`` is "Spell Counter"; a type with no name is written ``Counter 0x…``.
The lookup tries the full type, then its low 12 bits (the permit flags 0x1000/0x2000 are
not part of the name)."""

from __future__ import annotations

__all__ = ["COUNTER_NAMES", "counter_name"]

COUNTER_NAMES: dict[int, str] = {
    0x1: 'Spell Counter',
    0x2: 'Wedge Counter',
    0x3: 'Bushido Counter',
    0x4: 'Psychic Counter',
    0x5: 'Shine Counter',
    0x6: 'Crystal Counter',
    0x8: 'Morph Counter',
    0x9: 'Venom Counter',
    0xa: 'Genex Counter',
    0xc: 'Thunder Counter',
    0xd: 'Greed Counter',
    0xf: 'Worm Counter',
    0x10: 'Black Feather Counter',
    0x11: 'Hyper-Venom Counter',
    0x12: 'Karakuri Counter',
    0x13: 'Chaos Counter',
    0x15: 'Ice Counter',
    0x16: 'Spellstone Counter',
    0x17: 'Nut Counter',
    0x18: 'Flower Counter',
    0x19: 'Fog Counter',
    0x1a: 'Payback Counter',
    0x1b: 'Clock Counter',
    0x1c: 'D Counter',
    0x1d: 'Junk Counter',
    0x1e: 'Gate Counter',
    0x20: 'Plant Counter',
    0x21: 'Guard Counter',
    0x22: 'Dragonic Counter',
    0x23: 'Ocean Counter',
    0x24: 'String Counter',
    0x25: 'Chronicle Counter',
    0x2b: 'Destiny Counter',
    0x2e: 'Shark Counter',
    0x2f: 'Pumpkin Counter',
    0x30: 'Sky Counter',
    0x31: 'Rising Sun Counter',
    0x32: 'Balloon Counter',
    0x33: 'Yosen Counter',
    0x35: 'Symphonic Counter',
    0x36: 'Performage Counter',
    0x37: 'Kaiju Counter',
    0x38: 'Cubic Counter',
    0x39: 'Zushin Counter',
    0x41: 'Predator Counter',
    0x43: 'Defect Counter',
    0x45: 'Scale Counter',
    0x4a: 'Athlete Counter',
    0x4b: 'Borrel Counter',
    0x4c: 'Summon Counter',
    0x4d: 'Signal Counter',
    0x56: 'Fire Fist Counter',
    0x57: 'Phantasm Counter',
    0x59: 'Otoshidamashii Counter',
    0x5c: 'Burning Counter',
    0x5f: 'Peace Counter',
    0x63: 'Hallucination Counter',
    0x64: 'G Golem Counter',
    0x65: 'Bunny Ear Counter',
    0x6a: 'Resonance Counter',
    0x6c: 'Access Counter',
    0x6d: 'Success Counter',
    0x6e: 'Season Counter',
    0x6f: 'Place C Counter',
    0x70: 'Dish Counter',
    0x71: 'Sinquisition Counter',
    0x73: 'T Counter',
    # our own cards (cards/examples.toml, cards/counters.toml)
    0xf40: 'Lumen Counter',
    0xf54: 'Relic Counter',
    0x10f1: 'Hex Counter',
}


def counter_name(counter_type: int) -> str:
    """The name of a counter type, or ``Counter 0x…`` when the table has none."""
    name = COUNTER_NAMES.get(counter_type) or COUNTER_NAMES.get(counter_type & 0xFFF)
    return name if name is not None else f"Counter {counter_type:#x}"
