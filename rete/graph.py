"""The compiled network as a networkx graph, as DOT text, and as counts."""
from __future__ import annotations

import networkx as nx

from .network import beta_nodes


def _label(node) -> str:
    kind = getattr(node, "kind", type(node).__name__)
    if kind == "production":
        moved = getattr(node, "joined_last", ())
        last = f" [joined last: {', '.join(p.template for p in moved)}]" if moved else ""
        return f"P {node.production.name}{last}"
    if kind in ("join", "negative", "exists"):
        eq = ", ".join(f"{s}={_left(sig)}" for s, sig in node.spec.eq)
        return f"{kind} {node.amem.template}" + (f" [{eq}]" if eq else "")
    return kind


def _left(sig) -> str:
    if sig[0] == "var":
        _, pos, slot = sig
        return f"#{pos}.{slot or 'fact'}"
    return "expr"


def network_graph(session) -> nx.DiGraph:
    """Alpha nodes, alpha memories and beta nodes with their kinds and sizes."""
    g = nx.DiGraph()
    ids: dict[int, str] = {}

    def nid(node, prefix):
        k = id(node)
        if k not in ids:
            ids[k] = f"{prefix}{len(ids)}"
        return ids[k]

    for tname, root in session.alpha_roots.items():
        rid = nid(root, "a")
        g.add_node(rid, kind="alpha-root", label=f"template {tname}", size=len(session.by_template.get(tname, {})))
        stack = [root]
        while stack:
            n = stack.pop()
            for slot, table in n.children.items():
                for val, child in table.items():
                    cid = nid(child, "a")
                    g.add_node(cid, kind="alpha-test", label=f"{slot} == {val!r}", size=0)
                    g.add_edge(nid(n, "a"), cid)
                    stack.append(child)
            for m in n.memories:
                mid = nid(m, "am")
                g.add_node(mid, kind="alpha-memory", label=f"amem {m.template}", size=len(m.items),
                           indexes=len(m.indexes))
                g.add_edge(nid(n, "a"), mid)
    for n in beta_nodes(session.root):
        me = nid(n, "b")
        size = len(getattr(n, "tokens", ()) or ())
        g.add_node(me, kind=getattr(n, "kind", "?"), label=_label(n), size=size)
        amem = getattr(n, "amem", None)
        if amem is not None:
            g.add_edge(nid(amem, "am"), me)
        for c in getattr(n, "children", ()):
            g.add_edge(me, nid(c, "b"))
        partner = getattr(n, "partner", None)
        if partner is not None:
            g.add_edge(nid(partner, "b"), me, kind="ncc-partner")
    return g


def network_stats(session) -> dict:
    g = network_graph(session)
    kinds: dict[str, int] = {}
    sizes: dict[str, int] = {}
    for _, d in g.nodes(data=True):
        kinds[d["kind"]] = kinds.get(d["kind"], 0) + 1
        sizes[d["kind"]] = sizes.get(d["kind"], 0) + d.get("size", 0)
    # the join-order planner's decisions (rete.joinorder): rule -> templates
    # of the control patterns joined last
    moved = {name: [p.template for p in pn.joined_last]
             for name, pn in sorted(session.productions.items()) if pn.joined_last}
    return {"nodes": kinds, "memory_sizes": sizes, "facts": len(session.facts),
            "productions": len(session.productions), "activations": session.agenda.live,
            "joined_last": moved}


def to_dot(g: nx.DiGraph) -> str:
    shapes = {"alpha-root": "box", "alpha-test": "ellipse", "alpha-memory": "box3d",
              "production": "doubleoctagon", "join": "diamond", "negative": "invtriangle",
              "exists": "triangle", "ncc": "invtrapezium", "ncc-exists": "trapezium",
              "ncc-partner": "house", "beta-memory": "box", "root": "point", "test": "hexagon"}
    lines = ["digraph rete {", "  rankdir=TB;", '  node [fontname="Helvetica", fontsize=10];']
    for n, d in g.nodes(data=True):
        label = d.get("label", n).replace('"', "'")
        if d.get("size"):
            label += f"\\n({d['size']})"
        lines.append(f'  {n} [label="{label}", shape={shapes.get(d.get("kind"), "box")}];')
    for a, b, d in g.edges(data=True):
        style = ' [style=dashed]' if d.get("kind") == "ncc-partner" else ""
        lines.append(f"  {a} -> {b}{style};")
    lines.append("}")
    return "\n".join(lines) + "\n"
