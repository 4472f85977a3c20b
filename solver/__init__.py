"""dicetree's engine: the game interface, searches and exact solvers, and the games."""
