"""Files named by data stay inside the folders the user gave.

Script names, puzzle names from replays and chunk names are data: a replay, a
puzzle or a card script may carry any text.  Every place that joins such a name
to a folder goes through :func:`confined_path`, so no name can reach a file
outside its folder: no absolute path, no drive, no ``..`` part, and no symbolic
link (of the file or of a folder on the way) that leads out of the folder.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath, PureWindowsPath

__all__ = ["OutsideFolderError", "confined_path", "file_in_folders"]


class OutsideFolderError(ValueError):
    """A name that would reach a file outside its folder (the text says which and why)."""


def _refusal(name: str) -> str | None:
    """Why ``name`` is refused on its text alone (None: it is a plain relative name).

    Both ``/`` and ``\\`` separate parts, so a Windows-style name is judged the same."""
    if not name:
        return "an empty name"
    if "\0" in name:
        return "a NUL byte in the name"
    if PurePosixPath(name).is_absolute() or PureWindowsPath(name).is_absolute() \
            or name.startswith(("/", "\\")) or PureWindowsPath(name).drive:
        return "an absolute path"
    if ".." in name.replace("\\", "/").split("/"):
        return "a '..' part"
    return None


def confined_path(folder: str | os.PathLike[str], name: str) -> Path:
    """The path of ``name`` inside ``folder``; :class:`OutsideFolderError` when the name is
    absolute, has a ``..`` part, or resolves (symbolic links followed) outside the folder.

    The file need not exist: the rule is about where the name points."""
    why = _refusal(name)
    base = Path(folder)
    if why is None:
        path = base / name
        try:
            inside = path.resolve().is_relative_to(base.resolve())
        except (OSError, RuntimeError, ValueError) as exc:    # a symlink loop, a bad name
            why = f"it cannot be resolved ({exc})"
        else:
            if inside:
                return path
            why = f"a symbolic link leading out of {base}"
    raise OutsideFolderError(f"file name {name!r} refused: {why} (a file must stay inside its folder)")


def _plain_file(folder: Path, name: str) -> tuple[bool, Path | None]:
    """The quick answer for a plain file name (one part, like ``c1234.lua``): its path
    is inside ``folder`` unless the name itself is a symbolic link, which one
    ``lstat`` tells.  Returns (answered, the path of an existing regular file or None);
    not answered -- a link, a name with parts, anything odd -- means the full check."""
    if not name or name in (".", "..") or "/" in name or "\\" in name or "\0" in name \
            or ":" in name:
        return False, None
    path = folder / name
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return True, None
    except (OSError, ValueError):
        return False, None
    if stat.S_ISLNK(st.st_mode):
        return False, None
    return True, (path if stat.S_ISREG(st.st_mode) else None)


def file_in_folders(folders: list[Path] | tuple[Path, ...], name: str) -> Path | None:
    """The first existing file ``name`` among ``folders`` (searched in order), each lookup
    confined to its folder; None when there is none.  A refused name raises
    :class:`OutsideFolderError` (from the first folder).

    A plain name that is no symbolic link cannot leave its folder, so it takes one
    ``lstat`` (a script loads this way once per card code per duel); anything else
    goes through :func:`confined_path`."""
    for d in folders:
        answered, found = _plain_file(Path(d), name)
        if answered:
            if found is not None:
                return found
            continue
        p = confined_path(d, name)
        if p.is_file():
            return p
    return None
