"""What a browser test asks of every page, any screen and any input (issue 14 item 6).

``axe_scan`` runs axe-core (the script bundled by the ``axe-playwright-python`` package,
never fetched at run time) in the page and keeps the critical and serious violations;
``too_wide`` measures sideways scrolling; ``small_targets`` lists the controls a finger
cannot hit (under ``MIN_TARGET_PX`` tall). Each returns readable lines, so a failing
test says which rule, how bad, and where.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Page

#: The impacts a page may not have (axe's "moderate" and "minor" are reported elsewhere).
BLOCKING = ("critical", "serious")
#: The smallest height (CSS px) of a control a finger must hit on a phone.
MIN_TARGET_PX = 32

_AXE_OPTIONS = {"resultTypes": ["violations"]}

#: Visible controls shorter than the minimum: buttons, submit inputs, selects, text
#: fields, links inside forms and menus (<nav>), and Spy vs Spy's region buttons.
#: A link in running text (a paragraph, a list item) is not a target here (WCAG 2.5.8's
#: inline exception).
_SMALL_TARGETS = r"""(min) => {
  const picked = document.querySelectorAll(
    'button, [role=button], input[type=submit], input[type=button], input[type=reset], '
    + 'select, input[type=text], input[type=password], input[type=email], '
    + 'input[type=number], input[type=search], input:not([type]), form a, nav a, '
    + '.region-choice label');
  const small = [];
  for (const el of picked) {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (!box.width || !box.height || style.visibility === 'hidden') continue;
    if (el.closest('svg')) continue;
    if (el.tagName === 'A' && el.closest('p, li, dd')) continue;  // a link in running text
    if (box.height + 0.5 < min) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.value || '')
        .trim().replace(/\s+/g, ' ').slice(0, 30);
      const id = el.id ? '#' + el.id : '';
      small.push(`${el.tagName.toLowerCase()}${id} "${name}" ${Math.round(box.height)} px`);
    }
  }
  return small;
}"""


def axe_scan(page: Page) -> list[str]:
    """axe-core's critical and serious violations on the page now shown, one line each:
    the rule, its impact, and the CSS selectors of (at most five of) its nodes."""
    from axe_playwright_python.sync_playwright import Axe

    results: dict[str, Any] = Axe().run(page, options=_AXE_OPTIONS).response
    lines = []
    for violation in results.get("violations", []):
        if violation.get("impact") not in BLOCKING:
            continue
        targets = [" ".join(map(str, node.get("target", []))) for node in violation["nodes"]]
        more = f" (+{len(targets) - 5} more)" if len(targets) > 5 else ""
        first = violation["nodes"][0] if violation["nodes"] else {}
        why = " ".join(check.get("message", "") for check in first.get("any", [])[:1])
        lines.append(f"{violation['id']} [{violation['impact']}] {len(targets)}x: "
                     f"{'; '.join(targets[:5])}{more} ({violation['help']}; first: "
                     f"{first.get('html', '')[:100]} {why})")
    return lines


def too_wide(page: Page) -> int:
    """How many pixels the document is wider than the viewport (0: no sideways scroll)."""
    return max(0, int(page.evaluate(
        "document.documentElement.scrollWidth - window.innerWidth")))


_OVERFLOWING = r"""() => {
  const width = window.innerWidth;
  const out = [];
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.right <= width + 0.5 || !box.width) continue;
    if ([...el.children].some((c) => c.getBoundingClientRect().right > width + 0.5)) continue;
    let inBox = false;  // inside a box that scrolls sideways itself: not the page's width
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (['auto', 'scroll', 'hidden'].includes(style.overflowX)) { inBox = true; break; }
    }
    if (inBox) continue;
    const tag = el.outerHTML.slice(0, 70).replace(/\s+/g, ' ');
    const up = el.parentElement ? el.parentElement.outerHTML.slice(0, 50).replace(/\s+/g, ' ') : '';
    out.push(`${tag} (in ${up}) to ${Math.round(box.right)} px`);
    if (out.length >= 5) break;
  }
  return out;
}"""


def overflowing(page: Page) -> list[str]:
    """The innermost elements that reach past the right edge of the viewport (at most
    five), to say what makes a page scroll sideways."""
    found: list[str] = page.evaluate(_OVERFLOWING)
    return found


def small_targets(page: Page) -> list[str]:
    """The visible controls shorter than ``MIN_TARGET_PX``, one line each."""
    found: list[str] = page.evaluate(_SMALL_TARGETS, MIN_TARGET_PX)
    return found
