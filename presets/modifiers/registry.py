"""What the attached modifiers compile to: the :class:`Registry` (descriptors,
hooks, attributes) kept in ``ruleset.config['modifiers']``, the dispatch stage
names, the two templates, and the piece slot of an attribute."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rete import Template

from .models import SPECIAL_ATTRS, TRIGGER_KINDS, Descriptor


STAGE_NAMES = ("auras", "damaged", "capture", "captured", "promotion", "move",
               "moved-onto-square", "check-received", "check-delivered", "conditional",
               "turn-end", "turn-start")
DISPATCH_STAGES = tuple(f"mod.{n}" for n in STAGE_NAMES)

HOOK_TEMPLATE = Template("mod-hook", ("piece", "attr", "hook"))
AURA_TEMPLATE = Template("mod-aura", ("piece", "radius", "attr", "delta", "affects"))


def attr_slot(attr: str) -> str:
    """The piece slot an attribute lives in: ``AttackBonus`` -> ``attack-bonus``."""
    if attr in SPECIAL_ATTRS:
        return SPECIAL_ATTRS[attr]
    out = []
    for i, ch in enumerate(attr):
        if ch.isupper() and i:
            out.append("-")
        out.append(ch.lower())
    return "".join(out)


@dataclass
class Registry:
    """The compiled modifiers of a rule set (kept in ``ruleset.config['modifiers']``)."""

    descriptors: list[Descriptor] = field(default_factory=list)
    hooks: list[tuple[int, str, Any]] = field(default_factory=list)   # (desc, path, node)
    hook_ids: dict[tuple[int, str], int] = field(default_factory=dict)
    attachments: list[tuple[int, tuple[int, ...] | None]] = field(default_factory=list)
    attrs: set[str] = field(default_factory=set)          # custom slots
    aura_attrs: set[str] = field(default_factory=set)     # slots recomputed at stage 1
    written: set[str] = field(default_factory=set)        # slots add/seed primitives write
    auras: set[tuple] = field(default_factory=set)        # (radius, slot, delta, affects)
    uses_hp: bool = False
    kinds: set[str] = field(default_factory=set)          # trigger kinds (+ "conditional")

    def clone(self) -> "Registry":
        return Registry(list(self.descriptors), list(self.hooks), dict(self.hook_ids),
                        list(self.attachments), set(self.attrs), set(self.aura_attrs),
                        written=set(self.written), auras=set(self.auras),
                        uses_hp=self.uses_hp, kinds=set(self.kinds))

    def __deepcopy__(self, memo):
        return self.clone()

    def register(self, d: Descriptor) -> int:
        di = len(self.descriptors)
        self.descriptors.append(d)

        def walk(nodes, path):
            for i, n in enumerate(nodes):
                p = f"{path}[{i}]"
                k = n.kind
                if k in TRIGGER_KINDS or (k == "conditional" and path == "$.primitives"):
                    self.kinds.add(k)
                    self.hook_ids[(di, p)] = len(self.hooks)
                    self.hooks.append((di, p, n))
                if k in ("add-to-attribute", "seed-attribute"):
                    self._attr(n.params.attr)
                    self.written.add(attr_slot(n.params.attr))
                elif k == "add-aura":
                    slot = attr_slot(n.params.target_attr)
                    self.attrs.add(slot)
                    self.aura_attrs.add(slot)
                    self.auras.add((n.params.radius, slot, n.params.delta, n.params.affects))
                elif k == "set-capture-flag":
                    self.attrs.add("capture-flag")
                elif k == "on-damaged":
                    self.uses_hp = True
                if k in TRIGGER_KINDS:
                    walk(n.params.primitives, f"{p}.params.primitives")
                    if k == "on-damaged":
                        self.uses_hp = True
                elif k == "conditional":
                    c = n.params.if_
                    if c.attr:
                        self._attr(c.attr)
                    walk(n.params.then, f"{p}.params.then")
                    walk(n.params.else_, f"{p}.params.else")
        walk(d.primitives, "$.primitives")
        return di

    def _attr(self, attr: str) -> None:
        if attr == "Hp":
            self.uses_hp = True
        elif attr != "PieceType":
            self.attrs.add(attr_slot(attr))


def registry_of(session) -> Registry:
    return session.chess.ruleset.config["modifiers"]
