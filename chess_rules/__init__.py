"""Chess and its variants as production rules: board geometry, FEN/UCI/SAN, the FIDE
productions and the game session built on them."""
