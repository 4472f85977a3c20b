"""Caches: the transposition table used during search, and (later) the on-disk store of solved positions."""
