"""Little-endian byte helpers shared by the message and response codecs, and the
reference's 32-bit integer casts (``i32``/``u32``) that the rules and the
bindings use wherever the reference narrows a value to int32_t/uint32_t.

The reference core writes every multi-byte integer little-endian with no
padding and no alignment, so every layout here is a ``struct`` format with the
``<`` prefix. The Struct objects are compiled once at import time.
"""

from __future__ import annotations

from struct import Struct, error as StructError
from typing import Final

__all__ = [
    "StructError",
    "U8",
    "U16",
    "U32",
    "I32",
    "i32",
    "u32",
    "U8_U8",
    "U8_U32",
    "need",
    "pack_i32",
    "unpack_i32",
]

U8: Final = Struct("<B")
U16: Final = Struct("<H")
U32: Final = Struct("<I")
I32: Final = Struct("<i")
U8_U8: Final = Struct("<BB")
U8_U32: Final = Struct("<BI")


def i32(x: int) -> int:
    """The value as the reference's int32_t holds it (wrap to a signed 32-bit integer)."""
    x &= 0xFFFFFFFF
    return x - 0x100000000 if x & 0x80000000 else x


def u32(x: int) -> int:
    """The value as the reference's uint32_t holds it."""
    return x & 0xFFFFFFFF


def need(buf: bytes, offset: int, size: int) -> None:
    """Raise ``struct.error`` when ``buf`` has fewer than ``size`` bytes at ``offset``.

    Slicing a ``bytes`` object past its end silently returns fewer bytes, so
    every variable-length read checks the length first; fixed reads go through
    ``Struct.unpack_from``, which checks by itself.
    """
    if offset + size > len(buf):
        raise StructError(f"need {size} bytes at offset {offset}, only {len(buf) - offset} left")


def pack_i32(value: int) -> bytes:
    """The 4 bytes a host passes to ``set_responsei`` for ``value`` (int32, little-endian)."""
    return I32.pack(value)


def unpack_i32(raw: bytes, offset: int = 0) -> int:
    """Read the signed 32-bit integer at ``offset`` (``returns.ivalue[offset // 4]``)."""
    return I32.unpack_from(raw, offset)[0]
