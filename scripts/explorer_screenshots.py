"""Screenshots of the explorer's page for every registered game, into results/explorer/.

Usage::

    .venv/bin/python scripts/explorer_screenshots.py              # results/explorer/GAME.png
    .venv/bin/python scripts/explorer_screenshots.py -o /tmp/shots --depth 1
    .venv/bin/python scripts/explorer_screenshots.py --game rollforit    # one game's page

It starts ``dicetree explore`` on a free local port, opens each game's example in headless
Chromium (Debian's ``chromium`` and ``chromedriver`` through Selenium: nothing is downloaded),
waits for the drawn position and the ranked moves, draws the tree where the game has one, and
saves the page. The browser
tests (tests/test_browser.py) use the same :func:`serve` and :func:`chromium`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BROWSER, DRIVER = "chromium", "chromedriver"
WAIT = 60.0
"""Seconds a page may take to show an answer (a loaded shared machine is slow)."""
WIDTH, HEIGHT = 1300, 1000
MAX_HEIGHT = 2400
"""Screenshots are at most this tall (keeps each under about 1 MB)."""


def browser_missing() -> str:
    """Why no browser test can run here ('' where Chromium and its driver are installed)."""
    missing = [name for name in (BROWSER, DRIVER) if shutil.which(name) is None]
    if missing:
        return f"{' and '.join(missing)} not installed (Debian: apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return ""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serve(results: Path | None = None, tables: Path | None = None) -> Iterator[str]:
    """``dicetree explore`` on a free local port for the block (its stored exact values in ``tables``,
    e.g. a temporary folder for builds from the page); yields its address."""
    port = free_port()
    command = [str(ROOT / ".venv" / "bin" / "dicetree"), "explore", "--port", str(port)]
    if not Path(command[0]).exists():
        command = [sys.executable, "-m", "dicetree.cli.main", "explore", "--port", str(port)]
    if results is not None:
        command += ["--results", str(results)]
    if tables is not None:
        command += ["--tables", str(tables)]
    server = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    address = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + WAIT
        while True:
            try:
                urllib.request.urlopen(address + "api/games", timeout=2).read()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"the explorer did not start: {server.stderr.read().decode()[-500:]}") from None
                time.sleep(0.2)
        yield address
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()


def chromium(width: int = WIDTH, height: int = HEIGHT):
    """Headless Chromium driven by Selenium through Debian's chromedriver (no driver download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which(BROWSER)
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    return webdriver.Chrome(service=Service(executable_path=shutil.which(DRIVER)), options=options)


def wait_for(driver, css: str, timeout: float = WAIT):
    """The first element matching ``css`` once it is displayed."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout).until(expected_conditions.visibility_of_element_located((By.CSS_SELECTOR, css)))


def screenshot(driver, address: str, game: str, output: Path, depth: int, hidden: bool = False) -> Path:
    """One game's example page: the position drawn, the ranked moves (or each player's choices) and,
    where the game has one, the tree. Where the game hides something (``hidden``), you play the
    first seat against the engine: the page shows what your seat sees, the engine's hand face down,
    and your moves analysed ``depth`` deep from your view."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.set_window_size(WIDTH, HEIGHT)
    driver.get(f"{address}?game={game}" + (f"&depth={depth}" if hidden else ""))
    wait_for(driver, "#moves-area table")
    if hidden:
        Select(driver.find_element(By.ID, "seat-1")).select_by_value("engine")
        wait_for(driver, "#board-drawing g.card.face-down")
        wait_for(driver, "#moves-area table")
    wait_for(driver, "#board-drawing svg")
    driver.find_element(By.ID, "tree-depth").clear()
    driver.find_element(By.ID, "tree-depth").send_keys(str(depth))
    driver.find_element(By.ID, "tree-button").click()
    wait_for(driver, "#tree svg, #error:not([hidden])")  # a game without trees says why in one line
    driver.execute_script("window.scrollTo(0, 0)")
    height = min(driver.execute_script("return document.documentElement.scrollHeight"), MAX_HEIGHT)
    driver.set_window_size(driver.get_window_size()["width"], height)  # the whole page, up to MAX_HEIGHT
    path = output / f"{game}.png"
    driver.save_screenshot(str(path))
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=ROOT / "results" / "explorer")
    parser.add_argument("--depth", type=int, default=1, help="the tree's depth")
    parser.add_argument("--game", action="append", dest="games", metavar="GAME",
                        help="only this game (repeatable; default: every registered game)")
    args = parser.parse_args()
    reason = browser_missing()
    if reason:
        sys.exit(f"cannot take screenshots: {reason}")
    sys.path.insert(0, str(ROOT))
    from dicetree.solver.games import game_names

    args.output.mkdir(parents=True, exist_ok=True)
    with serve() as address:
        hidden = {game["game"]: game["hidden_information"]
                  for game in json.loads(urllib.request.urlopen(address + "api/games", timeout=WAIT).read())}
        driver = chromium()
        try:
            for game in args.games or game_names():
                path = screenshot(driver, address, game, args.output, args.depth, hidden[game])
                print(f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}  {path.stat().st_size / 1024:.0f} KB")
        finally:
            driver.quit()


if __name__ == "__main__":
    main()
