"""Graph exports: GraphML (tools), node-link JSON (programs), HTML (people).

The HTML page is self-contained: data, layout, styles and script are inline, it loads
nothing from the network, and every name is inserted as text, never as markup.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import networkx as nx

from hermes_memory.fileio import write_atomic
from hermes_memory.graph.knowledge_graph import KnowledgeGraph

HTML_MAX_NODES = 600  # beyond this a drawing is a hairball; the most connected are kept
TYPE_COLOURS = {
    "person": "#e4572e",
    "project": "#17bebb",
    "service": "#0b7a75",
    "tech": "#4c6ef5",
    "org": "#ffc914",
    "place": "#76b041",
    "concept": "#9e9e9e",
    "event": "#b05bd6",
    "other": "#795548",
}


def node_link(graph: KnowledgeGraph) -> dict[str, Any]:
    """Entities and relations as plain JSON (node-link form)."""
    nodes = [
        {
            "id": uuid,
            "name": d["name"],
            "entity_type": d["entity_type"],
            "aliases": list(d.get("aliases", [])),
            "first_seen": d.get("first_seen"),
            "last_seen": d.get("last_seen"),
            "occurrences": d.get("occurrences"),
        }
        for uuid, d in graph.g.nodes(data=True)
    ]
    edges = [
        {
            "id": key,
            "source": u,
            "target": v,
            "relation": d["relation_type"],
            "strength": d.get("strength"),
            "valid": d.get("invalid_at") is None,
            "valid_at": d.get("valid_at"),
            "invalid_at": d.get("invalid_at"),
            "evidence": d.get("evidence") or None,
        }
        for u, v, key, d in graph.g.edges(keys=True, data=True)
    ]
    return {"directed": True, "multigraph": True, "nodes": nodes, "edges": edges}


def summary(graph: KnowledgeGraph, kind: str) -> dict[str, Any]:
    n = graph.g.number_of_nodes()
    shown = min(n, HTML_MAX_NODES) if kind == "html" else n
    return {"nodes": n, "edges": graph.g.number_of_edges(), "nodes_shown": shown}


def write(graph: KnowledgeGraph, kind: str, target: Path, *, title: str) -> Path:
    if kind == "graphml":
        write_atomic(target, graph.write_graphml, prefix=".export-")
        return target
    if kind == "json":
        payload = json.dumps(node_link(graph), indent=1, default=str).encode()
    else:
        payload = html_page(graph, title=title).encode()
    write_atomic(target, lambda fh: fh.write(payload), prefix=".export-")
    return target


def html_page(graph: KnowledgeGraph, *, title: str) -> str:
    """One HTML file that draws the graph (pan, zoom, search, click for details)."""
    g = graph.undirected()
    keep = sorted(g.nodes, key=lambda u: (-g.degree(u), graph.g.nodes[u]["name"]))
    keep = keep[:HTML_MAX_NODES]
    pos = packed_layout(g.subgraph(keep))
    index = {u: i for i, u in enumerate(keep)}
    nodes = [
        {
            "name": graph.g.nodes[u]["name"],
            "type": graph.g.nodes[u]["entity_type"],
            "x": round(float(pos[u][0]), 4),
            "y": round(float(pos[u][1]), 4),
            "degree": graph.g.degree(u),
        }
        for u in keep
    ]
    edges = [
        {
            "s": index[u],
            "t": index[v],
            "rel": d["relation_type"],
            "valid": d.get("invalid_at") is None,
            "strength": d.get("strength", 1.0),
        }
        for u, v, d in graph.g.edges(data=True)
        if u in index and v in index and u != v
    ]
    data = {
        "title": f"hermes-memory graph: {title}",
        "total_nodes": graph.g.number_of_nodes(),
        "total_edges": graph.g.number_of_edges(),
        "nodes": nodes,
        "edges": edges,
        "colours": TYPE_COLOURS,
    }
    # "</" inside a script element would end it early: escape it in the JSON text.
    blob = json.dumps(data).replace("</", "<\\/")
    return _PAGE.replace("__DATA__", blob)


def packed_layout(g: nx.Graph) -> dict[Any, tuple[float, float]]:
    """Positions in [-1, 1]: each connected component laid out on its own (a force
    layout, or a circle when it is small) in a square whose side grows with the root of
    its size, and the squares packed in rows, largest first. Laid out together, the
    components repel each other and the unconnected nodes are flung to the edges."""
    boxes: list[tuple[float, dict[Any, Any]]] = []
    for comp in sorted(nx.connected_components(g), key=lambda c: (-len(c), min(map(str, c)))):
        sub = g.subgraph(comp)
        if len(comp) == 1:
            local = {u: (0.0, 0.0) for u in comp}
        elif len(comp) <= 4:
            local = nx.circular_layout(sub)
        else:
            local = nx.spring_layout(sub, seed=7, iterations=80)
        boxes.append((max(1.0, math.sqrt(len(comp))), local))
    if not boxes:
        return {}
    # Rows about as wide as the packed area is tall (the page is ~1.25 times wider).
    width = max(2 * boxes[0][0], 1.25 * math.sqrt(sum((2 * r + 1) ** 2 for r, _ in boxes)))
    out: dict[Any, tuple[float, float]] = {}
    x = y = row = 0.0
    for radius, local in boxes:
        side = 2 * radius + 1  # one unit of room between squares
        if x > 0 and x + side > width:
            x, y, row = 0.0, y + row, 0.0
        for u, (ux, uy) in local.items():
            out[u] = (x + side / 2 + ux * radius, y + side / 2 + uy * radius)
        x, row = x + side, max(row, side)
    xs = [p[0] for p in out.values()]
    ys = [p[1] for p in out.values()]

    def scale(v: float, lo: float, hi: float) -> float:
        return 0.0 if hi == lo else 2 * (v - lo) / (hi - lo) - 1

    return {
        u: (scale(px, min(xs), max(xs)), scale(py, min(ys), max(ys))) for u, (px, py) in out.items()
    }


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy"
 content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
<title>hermes-memory graph</title>
<style>
 body { margin: 0; font: 14px system-ui, sans-serif; color: #222; display: flex; height: 100vh; }
 #side { width: 280px; padding: 12px; border-right: 1px solid #ddd; overflow: auto; }
 #side h1 { font-size: 16px; margin: 0 0 8px; }
 #search { width: 100%; box-sizing: border-box; padding: 4px; margin: 8px 0; }
 #legend span { display: inline-block; margin: 2px 8px 2px 0; }
 #legend i { display: inline-block; width: 10px; height: 10px; border-radius: 5px;
   margin-right: 4px; }
 #details li { margin: 2px 0; }
 svg { flex: 1; cursor: grab; background: #fafafa; }
 .edge { stroke: #999; stroke-opacity: 0.6; }
 .edge.invalid { stroke-dasharray: 4 3; stroke-opacity: 0.35; }
 .node { stroke: #fff; stroke-width: 1.5px; cursor: pointer; }
 .label { pointer-events: none; fill: #333; paint-order: stroke; stroke: #fafafa;
   stroke-width: 3px; }
 .label.off { display: none; }
 .dim { opacity: 0.12; }
 .hit { stroke: #000; stroke-width: 3px; }
</style>
</head>
<body data-ready="false">
<div id="side">
 <h1 id="title"></h1>
 <div id="counts"></div>
 <input id="search" type="search" placeholder="find an entity">
 <div id="legend"></div>
 <h2 style="font-size:14px">Selected</h2>
 <div id="details">Click an entity to see its relations.</div>
</div>
<svg id="canvas" xmlns="http://www.w3.org/2000/svg"><g id="view"></g></svg>
<script id="graph-data" type="application/json">__DATA__</script>
<script>
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("graph-data").textContent);
  var NS = "http://www.w3.org/2000/svg";
  var svg = document.getElementById("canvas"), view = document.getElementById("view");
  document.getElementById("title").textContent = data.title;
  document.getElementById("counts").textContent = data.total_nodes + " entities, " +
    data.total_edges + " relations" + (data.nodes.length < data.total_nodes ?
    " (the " + data.nodes.length + " most connected shown)" : "");
  var legend = document.getElementById("legend");
  Object.keys(data.colours).forEach(function (t) {
    var s = document.createElement("span"), dot = document.createElement("i");
    dot.style.background = data.colours[t]; s.appendChild(dot);
    s.appendChild(document.createTextNode(t)); legend.appendChild(s);
  });
  var W = 1000, H = 800, pad = 40;
  function px(n) { return pad + (n.x + 1) / 2 * (W - 3 * pad); }  // room for labels right
  function py(n) { return pad + (n.y + 1) / 2 * (H - 2 * pad); }
  var adj = data.nodes.map(function () { return []; });
  var edgeEls = data.edges.map(function (e, i) {
    var l = document.createElementNS(NS, "line");
    l.setAttribute("class", "edge" + (e.valid ? "" : " invalid"));
    l.setAttribute("x1", px(data.nodes[e.s])); l.setAttribute("y1", py(data.nodes[e.s]));
    l.setAttribute("x2", px(data.nodes[e.t])); l.setAttribute("y2", py(data.nodes[e.t]));
    l.setAttribute("stroke-width", 0.5 + 1.5 * e.strength);
    var tip = document.createElementNS(NS, "title");
    tip.textContent = data.nodes[e.s].name + " " + e.rel + " " + data.nodes[e.t].name +
      (e.valid ? "" : " (no longer valid)");
    l.appendChild(tip); view.appendChild(l);
    adj[e.s].push(i); adj[e.t].push(i);
    return l;
  });
  var nodeEls = data.nodes.map(function (n, i) {
    var c = document.createElementNS(NS, "circle");
    c.setAttribute("class", "node"); c.setAttribute("cx", px(n)); c.setAttribute("cy", py(n));
    c.setAttribute("r", 4 + Math.min(12, Math.sqrt(n.degree) * 2));
    c.setAttribute("fill", data.colours[n.type] || "#777");
    c.setAttribute("data-index", i);
    var tip = document.createElementNS(NS, "title");
    tip.textContent = n.name + " (" + n.type + ")"; c.appendChild(tip);
    c.addEventListener("click", function (ev) { ev.stopPropagation(); select(i); });
    view.appendChild(c);
    return c;
  });
  var labelEls = data.nodes.map(function (n) {
    var t = document.createElementNS(NS, "text");
    t.setAttribute("class", "label"); t.textContent = n.name; view.appendChild(t);
    return t;
  });
  function radius(n) { return 4 + Math.min(12, Math.sqrt(n.degree) * 2); }
  // Labels keep one size on screen at every zoom and never overprint: the most
  // connected names are placed first, and a label that would overlap one already
  // placed is hidden (hover or select a node to read it). Zooming in makes room.
  var order = data.nodes.map(function (n, i) { return i; }).sort(function (a, b) {
    return data.nodes[b].degree - data.nodes[a].degree; });
  var shown = {}, hovered = -1, picked = {};
  function placeLabels() {
    var size = 11 / scale, placed = [];
    function free(box) {
      return box[0] >= 0 && box[2] <= W && placed.every(function (o) {
        return box[2] < o[0] || o[2] < box[0] || box[3] < o[1] || o[3] < box[1]; });
    }
    data.nodes.forEach(function (n) {  // nodes are obstacles too
      var r = radius(n) * scale, sx = px(n) * scale + tx, sy = py(n) * scale + ty;
      placed.push([sx - r, sy - r, sx + r, sy + r]);
    });
    order.forEach(function (i) {
      var n = data.nodes[i], el = labelEls[i], r = radius(n) * scale;
      var sx = px(n) * scale + tx, sy = py(n) * scale + ty, w = 6.5 * n.name.length + 4;
      var right = [sx + r + 1, sy - 8, sx + r + 1 + w, sy + 8];
      var left = [sx - r - 1 - w, sy - 8, sx - r - 1, sy + 8];
      var box = free(right) ? right : (free(left) ? left : null);
      var forced = i === hovered || picked[i];
      var on = box !== null || forced;
      box = box || right;
      el.setAttribute("font-size", size);
      el.setAttribute("text-anchor", box === left ? "end" : "start");
      el.setAttribute("x", ((box === left ? box[2] : box[0]) - tx) / scale);
      el.setAttribute("y", py(n) + size / 3);
      shown[i] = on; el.classList.toggle("off", !on);
      if (on && !forced) { placed.push(box); }
    });
    var count = 0, overlaps = 0, rects = [];
    labelEls.forEach(function (el, i) {
      if (!shown[i]) { return; }
      count += 1; var b = el.getBBox(); rects.push([b.x, b.y, b.x + b.width, b.y + b.height]);
    });
    for (var a = 0; a < rects.length; a++) {
      for (var b2 = a + 1; b2 < rects.length; b2++) {
        var p = rects[a], q = rects[b2];
        if (p[0] < q[2] && q[0] < p[2] && p[1] < q[3] && q[1] < p[3]) { overlaps += 1; }
      }
    }
    document.body.setAttribute("data-labels-shown", String(count));
    document.body.setAttribute("data-label-overlaps", String(overlaps));
  }
  nodeEls.forEach(function (c, i) {
    c.addEventListener("mouseenter", function () { hovered = i; placeLabels(); });
    c.addEventListener("mouseleave", function () { hovered = -1; placeLabels(); });
  });
  function clear() {
    nodeEls.concat(labelEls, edgeEls).forEach(function (el) {
      el.classList.remove("dim"); el.classList.remove("hit");
    });
    if (Object.keys(picked).length) { picked = {}; placeLabels(); }
  }
  function select(i) {
    clear();
    var near = {}; near[i] = true;
    adj[i].forEach(function (k) { near[data.edges[k].s] = true; near[data.edges[k].t] = true; });
    nodeEls.forEach(function (el, j) { if (!near[j]) { el.classList.add("dim"); } });
    labelEls.forEach(function (el, j) { if (!near[j]) { el.classList.add("dim"); } });
    edgeEls.forEach(function (el, k) { if (adj[i].indexOf(k) < 0) { el.classList.add("dim"); } });
    nodeEls[i].classList.add("hit");
    picked = near; placeLabels();  // a selected node's neighbours are named
    var box = document.getElementById("details"); box.textContent = "";
    var head = document.createElement("b");
    head.textContent = data.nodes[i].name + " (" + data.nodes[i].type + ")";
    box.appendChild(head);
    var ul = document.createElement("ul");
    adj[i].forEach(function (k) {
      var e = data.edges[k], li = document.createElement("li");
      li.textContent = data.nodes[e.s].name + " " + e.rel + " " + data.nodes[e.t].name +
        (e.valid ? "" : " (ended)");
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }
  svg.addEventListener("click", clear);
  document.getElementById("search").addEventListener("input", function (ev) {
    var q = ev.target.value.trim().toLowerCase(); clear();
    if (!q) { return; }
    data.nodes.forEach(function (n, j) {
      var on = n.name.toLowerCase().indexOf(q) >= 0;
      nodeEls[j].classList.add(on ? "hit" : "dim"); if (!on) { labelEls[j].classList.add("dim"); }
    });
  });
  var scale = 1, tx = 0, ty = 0, drag = null;
  function apply() { view.setAttribute("transform",
    "translate(" + tx + "," + ty + ") scale(" + scale + ")"); }
  svg.setAttribute("viewBox", "0 0 " + W + " " + H);
  // Zoom about the pointer: the point under it stays under it.
  svg.addEventListener("wheel", function (ev) {
    ev.preventDefault();
    var f = ev.deltaY < 0 ? 1.15 : 1 / 1.15, next = Math.max(0.2, Math.min(8, scale * f));
    var m = svg.getScreenCTM(), at = svg.createSVGPoint();
    at.x = ev.clientX; at.y = ev.clientY;
    var p = m ? at.matrixTransform(m.inverse()) : { x: W / 2, y: H / 2 };
    tx = p.x - (p.x - tx) * next / scale; ty = p.y - (p.y - ty) * next / scale;
    scale = next; apply(); placeLabels();
  }, { passive: false });
  // Panning in the drawing's own units, whatever the window's size.
  function units() { var m = svg.getScreenCTM(); return m ? 1 / m.a : 1; }
  svg.addEventListener("mousedown", function (ev) {
    drag = [ev.clientX, ev.clientY, tx, ty, units()]; });
  window.addEventListener("mousemove", function (ev) {
    if (!drag) { return; }
    tx = drag[2] + (ev.clientX - drag[0]) * drag[4];
    ty = drag[3] + (ev.clientY - drag[1]) * drag[4];
    apply();
  });
  window.addEventListener("mouseup", function () { if (drag) { drag = null; placeLabels(); } });
  placeLabels();
  document.body.setAttribute("data-ready", "true");
  document.body.setAttribute("data-drawn-nodes", String(nodeEls.length));
}());
</script>
</body>
</html>
"""
