"""agreement."""
