"""A task that gave no result (shared by every backend)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Lost", "PROGRESS_FIELDS"]

# integers each task can write into its progress array (turn, responses, step ...)
PROGRESS_FIELDS = 8


@dataclass(frozen=True)
class Lost:
    """A task that gave no result: "timeout" (killed at its deadline) or "crash"
    (its process died, ``exitcode`` says how), with the task's progress then."""

    how: str
    progress: tuple[int, ...]
    exitcode: int | None
    seconds: float

    def describe(self, timeout: float | None) -> str:
        """One clause for a report: why there is no result."""
        if self.how == "timeout":
            return f"no result after {timeout:g} s; its process was killed"
        return f"its process died (exit code {self.exitcode})"
