"""Side-by-side benchmarks of the houserules engine against peers (not run by CI)."""
