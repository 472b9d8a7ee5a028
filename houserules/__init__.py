"""houserules, the application: the command line and the tools built on the
library packages (:mod:`rete`, :mod:`chess_rules`, :mod:`presets`, :mod:`dice`),
among them the web playground (:mod:`houserules.web`)."""
