"""Caches: the transposition table used during search (`transposition`) and the on-disk store of solved positions (`store`)."""
