"""The `dicetree` command line (click)."""
