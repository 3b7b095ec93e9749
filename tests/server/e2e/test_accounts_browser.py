"""Accounts in the browser (docs/web-api.md, "Accounts"), through a real ``coloretto serve``
and Debian's Chromium: sign up, log in, log out from the page header, the session cookie's
flags, a rated table created by one account and joined by another (a guest is refused),
and the leaderboard keyed by account."""

from __future__ import annotations

from typing import Any

import httpx
from ratedgame import play_rated_game
from test_controls import toast_after

PASSWORD = "Ann's long password"


def sign_up(page: Any, name: str, password: str = PASSWORD, kind: str = "info") -> str:
    """Sign up from the header; returns the toast of ``kind`` shown."""
    page.click("[data-testid=account-open]")
    page.fill("#account-name", name)
    page.fill("#account-password", password)
    return toast_after(page, lambda: page.click("[data-testid=sign-up]"), kind)


def test_sign_up_log_in_rated_seat_and_log_out(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    ann = new_page()
    ann.goto(base + "/")
    # a guest cannot tick "rated"
    ann.wait_for_selector("#rated")
    assert ann.is_disabled("#rated") and "log in" in ann.inner_text("[data-testid=rated-note]")
    # cancel, then sign up
    ann.click("[data-testid=account-open]")
    ann.wait_for_selector("#account-name")
    ann.click("[data-testid=account-cancel]")
    ann.wait_for_selector("[data-testid=account-open]")
    assert ann.locator("#account-name").count() == 0
    assert sign_up(ann, "Ann") == "Welcome, Ann: your account is ready"
    assert ann.inner_text("[data-testid=signed-in]") == "Signed in as Ann"
    assert ann.input_value("#player-name") == "Ann"
    # the session cookie: HttpOnly (scripts cannot read it), SameSite=Lax
    cookie = next(c for c in ann.context.cookies() if c["name"] == "coloretto_session")
    assert cookie["httpOnly"] is True and cookie["sameSite"] == "Lax"
    assert "coloretto_session" not in ann.evaluate("() => document.cookie")
    # a rated table: "rated" turns hints off
    ann.check("#hints")
    ann.check("#rated")
    assert ann.is_disabled("#hints") and not ann.is_checked("#hints")
    ann.select_option("#seat-count", "2")
    ann.select_option("#seat-1", "human")
    ann.click("[data-testid=create]")
    ann.wait_for_url(f"{base}/table/*")
    tid = ann.url.rsplit("/", 1)[1]
    table = httpx.get(f"{base}/api/tables/{tid}", timeout=10).json()
    assert table["rated"] is True and table["hints"] is False and table["seats"][0]["name"] == "Ann"

    # another person: as a guest the seat is refused; with an account it is given
    bob = new_page()
    bob.goto(f"{base}/table/{tid}")
    bob.fill("#join-name", "Bob")
    assert "log in" in toast_after(bob, lambda: bob.click("[data-testid=join]"))
    # a name that looks like Ann's is taken
    assert sign_up(bob, "\u0410nn", kind="error") == "That name, or one that looks the same, is taken"
    assert bob.locator("[data-testid=signed-in]").count() == 0
    bob.fill("#account-name", "Bob")
    assert toast_after(bob, lambda: bob.click("[data-testid=sign-up]"), "info").startswith("Welcome, Bob")
    bob.click("[data-testid=join]")
    bob.wait_for_selector("[data-testid=leaving]")  # seated: the game started
    seats = httpx.get(f"{base}/api/tables/{tid}", timeout=10).json()["seats"]
    assert [s["name"] for s in seats] == ["Ann", "Bob"]

    # log out, then log in again (a wrong password first) with another spelling of the name
    assert toast_after(ann, lambda: ann.click("[data-testid=log-out]"), "info") == "Logged out"
    ann.wait_for_selector("[data-testid=account-open]")
    assert ann.evaluate("() => fetch('/api/session').then((r) => r.json())") == {"account": None}
    ann.click("[data-testid=account-open]")
    ann.fill("#account-name", "ann")
    ann.fill("#account-password", "not the password")
    assert toast_after(ann, lambda: ann.click("[data-testid=log-in]")) == "Wrong name or password"
    ann.fill("#account-password", PASSWORD)
    assert toast_after(ann, lambda: ann.press("#account-password", "Enter"), "info") == "Welcome back, Ann"
    assert ann.inner_text("[data-testid=signed-in]") == "Signed in as Ann"
    assert ann.evaluate("() => fetch('/api/session').then((r) => r.json())")["account"]["name"] == "Ann"


def test_the_leaderboard_lists_accounts(web_server: Any, new_page: Any) -> None:
    base = web_server.url
    play_rated_game(base, ("Cid", "Dee"))
    page = new_page()
    page.goto(base + "/#leaderboard")
    page.wait_for_selector("table.leaderboard >> text=Cid")
    assert page.locator("table.leaderboard >> text=Dee").count() == 1
    assert page.locator("text=Computer (").count() == 0
    page.check("#lb-computers")
    page.wait_for_selector("table.leaderboard >> text=Computer (random)")
