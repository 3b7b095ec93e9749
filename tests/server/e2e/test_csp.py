"""The browser client under the server's Content-Security-Policy: real ``coloretto serve``,
real Chromium; the lobby, a live table played by clicks until the end, the replay, the rules
page and the score sheet load and work with no CSP violation reported on the console and no
``securitypolicyviolation`` event."""

from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.slow

WATCH = """window.__csp = []; document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"""


def test_the_client_passes_its_content_security_policy(web_server: Any, chromium: Any) -> None:
    ctx = chromium.new_context()
    page = ctx.new_page()
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.add_init_script(WATCH)
    base = web_server.url
    response = page.goto(base + "/")
    assert (
        response is not None and "script-src 'self'" in response.headers["content-security-policy"]
    )
    page.fill("#player-name", "Ann")
    page.select_option("#seat-count", "2")
    page.select_option("#seat-0", "me")
    page.select_option("#seat-1", "computer:random")
    page.click("[data-testid=create]")
    page.wait_for_url(re.compile(r"/table/[^/]+$"))
    page.wait_for_selector("#table-view[data-conn=open]")
    table_id = page.url.rsplit("/", 1)[1]
    violations = page.evaluate("window.__csp")
    view = "#table-view"
    for _ in range(400):
        page.wait_for_selector(f"{view}[data-mine='1'], {view}[data-status=finished]")
        if page.get_attribute(view, "data-status") == "finished":
            break
        version = page.get_attribute(view, "data-version")
        page.locator(f"{view} button.action:enabled").first.click()
        page.wait_for_function(
            "v => document.querySelector('#table-view').dataset.version !== v", arg=version
        )
    assert page.get_attribute("#table-view", "data-status") == "finished"
    violations += page.evaluate("window.__csp")
    for path in (f"/replay/{table_id}", "/rules", "/score"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        violations += page.evaluate("window.__csp")
    ctx.close()
    blocked = [
        t for t in console if "Content Security Policy" in t or "Content-Security-Policy" in t
    ]
    assert not blocked and not violations, (blocked, violations)


def test_the_api_browser_works_under_the_policy(web_server: Any, chromium: Any) -> None:
    """``/docs`` (docs/web-api.md: the OpenAPI description, browsable) shows every operation of
    ``/openapi.json`` from the server's own copy of Swagger UI: no CDN (this machine may have
    no internet), no inline script, no violation; an operation opens to its parameters."""
    import httpx

    ctx = chromium.new_context()
    page = ctx.new_page()
    console: list[str] = []
    errors: list[str] = []
    page.on("console", lambda m: console.append(m.text))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.add_init_script(WATCH)
    requested: list[str] = []
    page.on("request", lambda r: requested.append(r.url))
    base = web_server.url
    page.goto(base + "/docs")
    page.wait_for_selector(".opblock-summary-path", timeout=20_000)
    shown = set(page.locator(".opblock-summary-path").all_inner_texts())
    spec = httpx.get(base + "/openapi.json", timeout=10).json()
    assert {p.replace("\u200b", "") for p in shown} == set(spec["paths"]), shown
    page.locator(".opblock-summary-path", has_text="/api/score").first.click()
    page.wait_for_selector(".opblock.is-open .opblock-section-request-body, .opblock.is-open .parameters")
    violations = page.evaluate("window.__csp")
    ctx.close()
    assert all(url.startswith(base) for url in requested), requested
    blocked = [t for t in console if "Content Security Policy" in t or "Content-Security-Policy" in t]
    assert not blocked and not violations and not errors, (blocked, violations, errors)
    assert httpx.get(base + "/redoc", timeout=10).status_code == 404
