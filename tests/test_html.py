"""A duel you can look at: the HTML pages of ``duelhost replay --html``, ``duelhost diff --html``
and of a failed expectation in the pytest toolkit.

The page is checked as data (the JSON it embeds) and in a real headless browser: Debian's
``chromium`` runs the page's script (``--dump-dom`` after it ran) and takes a screenshot.
The browser tests skip when chromium is not installed (``apt-get install chromium``)."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from duelhost import paths
from duelhost.engine.carddb import CardDatabase
from duelhost.html import apply_message, replay_page
from duelhost.replay import read_replay

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "samples" / "demo.yrp"
GOLDEN = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
CHROMIUM = next((p for p in map(shutil.which, ("chromium", "chromium-browser", "google-chrome")) if p), None)
needs_browser = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")


def page_data(path: Path) -> dict:
    text = path.read_text(encoding="utf-8")
    m = re.search(r'<script id="duel-data" type="application/json">(.*?)</script>', text, re.S)
    assert m is not None
    return json.loads(m.group(1))


def browser(*args: str, url: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--virtual-time-budget=5000", *args, url],
                          capture_output=True, text=True, timeout=120)


def rendered_dom(path: Path, fragment: str = "") -> str:
    res = browser("--dump-dom", url=path.resolve().as_uri() + fragment)
    assert res.returncode == 0, res.stderr[-2000:]
    return res.stdout


def screenshot_colours(path: Path, png: Path) -> int:
    """Take a screenshot; the number of distinct colours in its first rows (a blank page has 1)."""
    res = browser(f"--screenshot={png}", "--window-size=1300,1100", url=path.resolve().as_uri())
    assert png.is_file(), res.stderr[-2000:]
    data = png.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    # decode the PNG's image data (8-bit RGB/RGBA, no interlace) to count colours
    pos, idat, width, colour = 8, b"", 0, 0
    while pos < len(data):
        n = int.from_bytes(data[pos:pos + 4], "big")
        kind, body = data[pos + 4:pos + 8], data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, colour = int.from_bytes(body[:4], "big"), body[9]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    bpp = 4 if colour == 6 else 3
    stride = width * bpp + 1
    seen: set[bytes] = set()
    prev = bytearray(width * bpp)
    for row in range(min(600, len(raw) // stride)):
        line = bytearray(raw[row * stride + 1:(row + 1) * stride])
        f = raw[row * stride]
        for i in range(len(line)):            # undo the PNG filters
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        seen.update(bytes(line[i:i + 3]) for i in range(0, len(line), bpp * 7))
    return len(seen)


@pytest.fixture(scope="module")
def sample_page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = CardDatabase.open(paths.bundled_db())
    return replay_page(read_replay(SAMPLE), db, paths.bundled_scripts(), tmp_path_factory.mktemp("html") / "demo.html")


def test_replay_page_is_self_contained_with_a_step_per_decision(sample_page: Path) -> None:
    text = sample_page.read_text(encoding="utf-8")
    assert text.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", text)     # nothing from the network
    assert "<link" not in text and "<script src" not in text
    data = page_data(sample_page)
    steps = data["timeline"]["steps"]
    assert len(steps) == 182 + 1                 # the first prompt, then one step per recorded answer
    assert steps[0]["from"] == 0 and all(a["to"] == b["from"] for a, b in zip(steps, steps[1:]))
    assert steps[-1]["to"] == len(data["timeline"]["messages"])
    assert steps[0]["ask"].startswith("SELECT_") and steps[0]["answer"]
    words = [m["w"] for m in data["timeline"]["messages"]]
    assert "=== Turn: Player 0 ===" in words and any(w.startswith("*** Player 0 wins") for w in words)
    assert "Revival Rite" in data["names"].values()


@needs_browser
def test_replay_page_renders_in_a_browser(sample_page: Path, tmp_path: Path) -> None:
    dom = rendered_dom(sample_page)
    assert 'data-rendered="yes"' in dom                       # the script ran to the end
    assert "step 182 of 182" in dom and "P0 LP" in dom and "P1 LP" in dom
    data = page_data(sample_page)
    last = data["timeline"]["steps"][-1]["board"]
    on_field = [c["c"] for side in last["p"] for c in side["m"] + side["s"] if c is not None]
    assert on_field and all(data["names"][str(c)] in dom for c in on_field)   # every card on the board, by name
    # stepping through: another step shows its own board and messages
    dom5 = rendered_dom(sample_page, "#step=5")
    assert "step 5 of 182" in dom5 and "asked: " in dom5
    assert screenshot_colours(sample_page, tmp_path / "shot.png") > 8


def _tampered_golden(tmp_path: Path) -> Path:
    """The first recorded duel with one reference DAMAGE message changed (a divergence on purpose)."""
    from duelhost.engine.messages import MsgDamage, decode_messages, encode_messages
    rec = json.loads(gzip.open(GOLDEN, "rt").readline())
    for step in rec["steps"][20:]:
        msgs = decode_messages(bytes.fromhex(step["messages"]))
        hit = next((i for i, m in enumerate(msgs) if isinstance(m, MsgDamage)), None)
        if hit is not None:
            msgs[hit] = dataclasses.replace(msgs[hit], amount=msgs[hit].amount + 100)
            step["messages"] = encode_messages(msgs).hex()
            break
    path = tmp_path / "tampered.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.write(json.dumps(rec) + "\n")
    return path


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).parent / "duelhost"
    return subprocess.run([str(exe), *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_diff_html_writes_one_page_per_divergent_duel(tmp_path: Path) -> None:
    golden = _tampered_golden(tmp_path)
    res = _run(["diff", "--golden", str(golden), "--html", str(tmp_path / "pages")], tmp_path)
    assert res.returncode == 1
    assert "1 page(s) of divergent duels written to" in res.stderr
    pages = sorted((tmp_path / "pages").glob("*.html"))
    assert [p.name for p in pages] == ["vanilla-001.html"]
    data = page_data(pages[0])
    div = data["divergence"]
    i = div["index"]
    ref, ours = div["reference"][i], div["duelhost"][i]
    assert ref["k"] == ours["k"] == "DAMAGE" and ref["hex"] != ours["hex"]
    assert ref["w"] != ours["w"] and "damage" in ref["w"]
    assert div["reference"][:i] == div["duelhost"][:i]         # the agreeing messages before it
    lp_ref = [s["lp"] for s in div["boards"]["reference"]["p"]]
    lp_us = [s["lp"] for s in div["boards"]["duelhost"]["p"]]
    assert lp_ref != lp_us and sum(lp_us) - sum(lp_ref) == 100   # each board with its own stream applied
    # the identical duels make no page
    res = _run(["diff", "--golden", str(GOLDEN), "--limit", "2", "--html", str(tmp_path / "none")], tmp_path)
    assert res.returncode == 0 and not list((tmp_path / "none").glob("*.html"))


@needs_browser
def test_divergence_page_shows_both_cores_in_a_browser(tmp_path: Path) -> None:
    golden = _tampered_golden(tmp_path)
    assert _run(["diff", "--golden", str(golden), "--html", str(tmp_path)], tmp_path).returncode == 1
    page = tmp_path / "vanilla-001.html"
    dom = rendered_dom(page)
    assert "reference core at the first difference" in dom and "duelhost at the first difference" in dom
    assert dom.count('class="msg diff"') == 2                  # the differing message, once per core
    assert re.search(r"Player 0 takes \d+ damage", dom)
    assert screenshot_colours(page, tmp_path / "div.png") > 8


def test_apply_message_moves_and_lp() -> None:
    from duelhost.engine import constants as C
    from duelhost.engine.messages import LocInfo, MsgDamage, MsgMove
    empty = {"lp": 8000, "deck": 1, "m": [None] * 7, "s": [None] * 8, "hand": [], "grave": [], "removed": [],
             "extra": []}
    board = {"turn": 1, "tp": 0, "phase": 4, "chain": [], "p": [json.loads(json.dumps(empty)) for _ in range(2)]}
    board["p"][0]["hand"].append({"c": 5, "pos": 10, "t": 0x11})
    move = MsgMove(code=5, previous=LocInfo(controller=0, location=C.LOCATION_HAND, sequence=0, position=10),
                   current=LocInfo(controller=0, location=C.LOCATION_MZONE, sequence=2, position=1), reason=0)
    apply_message(board, move)
    assert board["p"][0]["hand"] == [] and board["p"][0]["m"][2]["c"] == 5 and board["p"][0]["m"][2]["pos"] == 1
    apply_message(board, MsgDamage(player=1, amount=300))
    assert board["p"][1]["lp"] == 7700


FAILING_TEST = '''
def test_lp(duel):
    duel.add("Seedling Sower", to="hand")
    duel.start()
    duel.expect_lp(1, 1234)
'''


def test_a_failed_expectation_writes_a_page(tmp_path: Path) -> None:
    (tmp_path / "test_it.py").write_text(FAILING_TEST, encoding="utf-8")
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_it.py",
                          "--duelhost-html", str(tmp_path / "pages")], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 1, res.stdout[-3000:]
    assert "Expected player 1 to have 1234 LP, but they have 8000 LP" in res.stdout
    m = re.search(r"The duel step by step \(HTML\): (\S+\.html)", res.stdout)
    assert m is not None, res.stdout[-3000:]
    page = Path(m.group(1))
    assert page.parent == tmp_path / "pages" and page.is_file()
    data = page_data(page)
    assert data["failure"].startswith("Expected player 1 to have 1234 LP")
    assert "Seedling Sower" in data["names"].values()
    if CHROMIUM is not None:
        dom = rendered_dom(page)
        assert "Expected player 1 to have 1234 LP" in dom and "Seedling Sower" in dom
    # --duelhost-html no: no page
    res = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "test_it.py",
                          "--duelhost-html", "no"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert res.returncode == 1 and "step by step (HTML)" not in res.stdout


def _one_live_duel(ref_lib: Path):
    from duelhost.diff import run_live_diff
    summary = run_live_diff(ref_lib, seeds=1, first_seed=3, db_path=paths.bundled_db(),
                            scripts=paths.bundled_scripts(), turn_limit=6, duel_timeout=None,
                            deck_files=[REPO / "cards" / "demo_a.ydk", REPO / "cards" / "demo_b.ydk"])
    (result,) = summary.results
    return result


def test_live_page_of_an_identical_duel_and_of_a_divergence(ref_lib: Path, tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    from duelhost import diff
    from duelhost.html import live_divergence_page
    result = _one_live_duel(ref_lib)
    assert result.identical
    db = CardDatabase.open(paths.bundled_db())
    page = live_divergence_page(result, ref_lib, db, paths.bundled_scripts(), tmp_path / "same.html")
    data = page_data(page)
    assert "divergence" not in data and len(data["timeline"]["steps"]) == result.responses + 1
    # our stream made to differ at the fifth step (the page's own comparison finds it)
    real = diff.settle_hint_order
    calls = {"n": 0}

    def tampered(theirs, mine):
        calls["n"] += 1
        mine, n = real(theirs, mine)
        return ([mine[0], mine[0], *mine[2:]] if calls["n"] == 5 and len(mine) > 1 else mine), n
    monkeypatch.setattr(diff, "settle_hint_order", tampered)
    page = live_divergence_page(result, ref_lib, db, paths.bundled_scripts(), tmp_path / "div.html")
    div = page_data(page)["divergence"]
    assert div["index"] == 1 and div["reference"][1] != div["duelhost"][1]
    assert len(page_data(page)["timeline"]["steps"]) == 4
    if CHROMIUM is not None:
        assert "reference core at the first difference" in rendered_dom(page)
