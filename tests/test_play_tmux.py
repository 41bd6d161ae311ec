"""``duelhost play`` in a real terminal: driven through tmux (send-keys, capture-pane).

Skipped when tmux is not installed.  The tmux server runs on a socket of the
test's own (``tmux -S``), so it never touches a user's sessions.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed")

TIMEOUT = 60.0


class Pane:
    """One detached tmux session running a command."""

    def __init__(self, socket: Path, command: list[str], cwd: Path) -> None:
        self.socket = str(socket)
        self.name = "duelhost"
        subprocess.run([TMUX, "-S", self.socket, "new-session", "-d", "-s", self.name, "-x", "150", "-y", "50",
                        "-c", str(cwd), " ".join(command)], check=True)
        # keep the pane after the program exits, so its last screen can be read
        subprocess.run([TMUX, "-S", self.socket, "set-option", "-t", self.name, "remain-on-exit", "on"],
                       check=True)

    def text(self) -> str:
        """The whole pane, history included."""
        out = subprocess.run([TMUX, "-S", self.socket, "capture-pane", "-p", "-J", "-S", "-3000",
                              "-t", self.name], check=True, capture_output=True, text=True)
        return out.stdout

    def screen(self) -> str:
        """What is on the screen now."""
        out = subprocess.run([TMUX, "-S", self.socket, "capture-pane", "-p", "-t", self.name],
                             check=True, capture_output=True, text=True)
        return out.stdout

    def send(self, keys: str) -> None:
        subprocess.run([TMUX, "-S", self.socket, "send-keys", "-t", self.name, keys, "Enter"], check=True)

    def wait_for(self, pattern: str, *, after: int = 0) -> str:
        """Wait until ``pattern`` appears in the pane text past character ``after``."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            text = self.text()
            if re.search(pattern, text[after:], re.M):
                return text
            time.sleep(0.1)
        raise AssertionError(f"{pattern!r} did not appear; the pane shows:\n{self.text()[-3000:]}")

    def wait_prompt(self, count_before: int) -> str:
        """Wait for the next input prompt (one more "P0> " than before)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            text = self.text()
            if text.count("P0> ") > count_before:
                return text
            time.sleep(0.1)
        raise AssertionError(f"no new prompt; the pane shows:\n{self.text()[-3000:]}")

    def close(self) -> None:
        subprocess.run([TMUX, "-S", self.socket, "kill-server"], check=False, capture_output=True)


def option_number(text: str, label: str) -> int:
    """The number of the option whose label contains ``label`` in the last question shown."""
    last = text[text.rfind("-" * 72):]
    for line in reversed(last.splitlines()):
        m = re.match(r"\s*(\d+)\. (.*)", line)
        if m and label in m.group(2):
            return int(m.group(1))
    raise AssertionError(f"no option {label!r} in:\n{last}")


def test_play_a_few_turns_in_tmux(tmp_path: Path) -> None:
    repo = Path(__file__).resolve().parent.parent
    pane = Pane(tmp_path / "tmux.sock", [sys.executable, "-m", "duelhost.cli", "play", "--seed", "5"], repo)
    try:
        text = pane.wait_for(r"^P0> ")
        assert "duelhost play -- seed 5 -- the demo decks" in text
        assert "Turn 1 -- You (P0) -- Main Phase 1" in text                 # the board
        assert re.search(r"^\[P1\] Opponent: LP 8000 \| hand 5 \| deck 35", text, re.M)
        assert re.search(r"^\s+1\. Normal Summon Cinderwood \w+", text, re.M)   # numbered options

        # the card text of option 1
        prompts = text.count("P0> ")
        pane.send("? 1")
        text = pane.wait_prompt(prompts)
        assert re.search(r"Cinderwood .* \[1900000\d\d\]\nMonster/Normal \| \w+ \w+ \| Level \d", text)

        # turn 1: Normal Summon the first card into the first zone, end the turn
        for label in ("Normal Summon", "your M1", "End the turn"):
            prompts = text.count("P0> ")
            pane.send(str(option_number(text, label)))
            text = pane.wait_prompt(prompts)
        assert "is Normal Summoned to your M1" in text
        # the random player took its turn; turn 3 is ours again
        text = pane.wait_for(r"Turn 3 -- You \(P0\)")
        assert "=== Turn: Opponent ===" in text

        # turn 3: to the Battle Phase and attack if we can, then end the turn
        prompts = text.count("P0> ")
        pane.send(str(option_number(text, "Battle Phase")))
        text = pane.wait_prompt(prompts)
        if "Attack with" in text[text.rfind("-" * 72):]:
            prompts = text.count("P0> ")
            pane.send(str(option_number(text, "Attack with")))
            text = pane.wait_prompt(prompts)
            while "choose 1 card to attack" in text[text.rfind("-" * 72):]:
                prompts = text.count("P0> ")
                pane.send("1")
                text = pane.wait_prompt(prompts)
            assert "attacks" in text
        prompts = text.count("P0> ")
        pane.send(str(option_number(text, "End the turn")))
        text = pane.wait_for(r"Turn 5 -- You \(P0\)")
        prompts = text.count("P0> ")
        pane.send("q")
        text = pane.wait_for(r"You left the duel\.")
        screen = pane.screen()
        assert "You left the duel." in screen
    finally:
        pane.close()
