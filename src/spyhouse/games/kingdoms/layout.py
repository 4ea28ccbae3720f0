"""Where each area of a Kingdoms map is drawn: positions from the map's adjacency alone.

Maps carry no coordinates (B.1), so the page lays them out: classical multidimensional
scaling of the land areas' land distances (two leading eigenvectors by power
iteration, pure Python and deterministic), turned so that the wider axis is
horizontal and the first land area sits top left, nudged apart where two areas
would overlap; each sea is drawn just beyond the middle of its coast. On the
default map this gives back the 6×4 grid of B.2 with the four seas around it and
the Mere in the middle.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Mapping, Sequence
from typing import Any

Point = tuple[float, float]


def _distances(ids: Sequence[str], adj: Mapping[str, Sequence[str]]) -> list[list[float]]:
    index = {area: i for i, area in enumerate(ids)}
    n = len(ids)
    far = float(n)  # unreachable (cannot happen on a valid map): as far as the map is big
    table = [[far] * n for _ in range(n)]
    for start in ids:
        row = table[index[start]]
        row[index[start]] = 0.0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in adj.get(here, ()):
                if there in index and row[index[there]] == far and there != start:
                    row[index[there]] = row[index[here]] + 1.0
                    queue.append(there)
    return table


def _leading(matrix: list[list[float]], others: list[list[float]], seed: int) -> tuple[
        list[float], float]:
    """The leading eigenvector (unit) and eigenvalue of a symmetric matrix, orthogonal to
    ``others``, by power iteration from a fixed start."""
    n = len(matrix)
    vector = [math.cos(seed * 1.7 + 0.9 * i) + 0.01 * i for i in range(n)]
    value = 0.0
    for _ in range(300):
        for other in others:
            dot = sum(a * b for a, b in zip(vector, other, strict=True))
            vector = [a - dot * b for a, b in zip(vector, other, strict=True)]
        nxt = [sum(row[j] * vector[j] for j in range(n)) for row in matrix]
        norm = math.sqrt(sum(a * a for a in nxt))
        if norm < 1e-12:
            return [0.0] * n, 0.0
        value = norm
        vector = [a / norm for a in nxt]
    return vector, value


def _mds(ids: Sequence[str], adj: Mapping[str, Sequence[str]]) -> list[Point]:
    n = len(ids)
    if n == 1:
        return [(0.0, 0.0)]
    squared = [[d * d for d in row] for row in _distances(ids, adj)]
    rows = [sum(row) / n for row in squared]
    total = sum(rows) / n
    centred = [[-0.5 * (squared[i][j] - rows[i] - rows[j] + total) for j in range(n)]
               for i in range(n)]
    first, value1 = _leading(centred, [], 1)
    second, value2 = _leading(centred, [first], 2)
    xs = [a * math.sqrt(max(value1, 0.0)) for a in first]
    ys = [a * math.sqrt(max(value2, 0.0)) for a in second]
    if max(ys, default=0) - min(ys, default=0) > max(xs, default=0) - min(xs, default=0):
        xs, ys = ys, xs
    mean_x, mean_y = sum(xs) / n, sum(ys) / n
    if xs[0] > mean_x + 1e-9:
        xs = [-x for x in xs]
    if ys[0] > mean_y + 1e-9:
        ys = [-y for y in ys]
    return list(zip(xs, ys, strict=True))


def _stress(points: list[Point], dist: list[list[float]], rounds: int = 200) -> list[Point]:
    """Stress majorization (weights 1/d², as graph drawing tools do) from ``points``."""
    n = len(points)
    xs = [p[0] for p in points]
    ys = [p[1] for p in points]
    for _ in range(rounds):
        nx, ny = [], []
        for i in range(n):
            sx = sy = sw = 0.0
            for j in range(n):
                d = dist[i][j]
                if i == j or d <= 0:
                    continue
                w = 1.0 / (d * d)
                gap = math.hypot(xs[i] - xs[j], ys[i] - ys[j]) or 1e-9
                sx += w * (xs[j] + d * (xs[i] - xs[j]) / gap)
                sy += w * (ys[j] + d * (ys[i] - ys[j]) / gap)
                sw += w
            nx.append(sx / sw if sw else xs[i])
            ny.append(sy / sw if sw else ys[i])
        xs, ys = nx, ny
    return list(zip(xs, ys, strict=True))


def _spread(points: list[Point], gap: float) -> list[Point]:
    """Push apart any two points closer than ``gap`` (a few deterministic rounds)."""
    moved = [list(p) for p in points]
    for _ in range(60):
        calm = True
        for i in range(len(moved)):
            for j in range(i + 1, len(moved)):
                dx = moved[j][0] - moved[i][0]
                dy = moved[j][1] - moved[i][1]
                dist = math.hypot(dx, dy)
                if dist >= gap:
                    continue
                calm = False
                if dist < 1e-9:
                    dx, dy, dist = math.cos(i + j), math.sin(i + j), 1.0
                push = (gap - dist) / 2 / dist
                moved[i][0] -= dx * push
                moved[i][1] -= dy * push
                moved[j][0] += dx * push
                moved[j][1] += dy * push
        if calm:
            break
    return [(p[0], p[1]) for p in moved]


def _hull(points: list[Point]) -> list[Point]:
    """The convex hull (monotone chain), counter-clockwise; fewer than 3 points as given."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o: Point, a: Point, b: Point) -> float:
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])

    lower: list[Point] = []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    upper: list[Point] = []
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def sea_shapes(game_map: Mapping[str, Any], pos: Mapping[str, Point]) -> dict[
        str, tuple[list[Point], dict[str, Point]]]:
    """Per sea: the outline of its water (a hull just off its coast) and, per coastal land
    area, the point of that outline the coast line runs to."""
    areas = [a for a in game_map.get("area") or () if isinstance(a, Mapping)]
    land = [pos[str(a["id"])] for a in areas if a.get("kind") == "land" and str(a["id"]) in pos]
    if not land:
        return {}
    cx = sum(p[0] for p in land) / len(land)
    cy = sum(p[1] for p in land) / len(land)
    shapes: dict[str, tuple[list[Point], dict[str, Point]]] = {}
    for sea in (a for a in areas if a.get("kind") == "sea"):
        sid = str(sea["id"])
        sx, sy = pos[sid]
        dx, dy = sx - cx, sy - cy
        norm = math.hypot(dx, dy)
        points: dict[str, Point] = {}
        for a in areas:
            if a.get("kind") != "land" or sid not in (a.get("seas") or ()):
                continue
            x, y = pos[str(a["id"])]
            if norm > 0.25:
                points[str(a["id"])] = (x + dx / norm * 0.72, y + dy / norm * 0.72)
            else:
                points[str(a["id"])] = (x + (sx - x) * 0.5, y + (sy - y) * 0.5)
        shapes[sid] = (_hull([*points.values(), (sx, sy)]), points)
    return shapes


def layout(game_map: Mapping[str, Any]) -> dict[str, Point]:
    """Positions (in units of one land step) of every area of the map JSON (B.1)."""
    areas = [a for a in game_map.get("area") or () if isinstance(a, Mapping)]
    land = [str(a["id"]) for a in areas if a.get("kind") == "land"]
    adj = {str(a["id"]): [str(x) for x in a.get("adj") or ()] for a in areas}
    if not land:
        return {}
    raw = _stress(_mds(land, adj), _distances(land, adj))
    # one land step ~ 1 unit: scale by the median length of a land border
    lengths = sorted(math.dist(raw[i], raw[land.index(b)])
                     for i, a in enumerate(land) for b in adj[a] if b in land)
    step = lengths[len(lengths) // 2] if lengths else 1.0
    step = step if step > 1e-9 else 1.0
    pos = dict(zip(land, _spread([(x / step, y / step) for x, y in raw], 0.95), strict=True))
    cx = sum(p[0] for p in pos.values()) / len(pos)
    cy = sum(p[1] for p in pos.values()) / len(pos)
    for sea in (a for a in areas if a.get("kind") == "sea"):
        coast = [pos[str(a["id"])] for a in areas
                 if a.get("kind") == "land" and sea["id"] in (a.get("seas") or ())]
        if not coast:
            pos[str(sea["id"])] = (cx, cy)
            continue
        sx = sum(p[0] for p in coast) / len(coast)
        sy = sum(p[1] for p in coast) / len(coast)
        dx, dy = sx - cx, sy - cy
        norm = math.hypot(dx, dy)
        if norm > 0.25:
            reach = max(abs((p[0] - cx) * dx + (p[1] - cy) * dy) / norm for p in coast)
            out = reach + 0.9
            sx, sy = cx + dx / norm * out, cy + dy / norm * out
        pos[str(sea["id"])] = (sx, sy)
    return pos
