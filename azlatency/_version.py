"""The version, in one place: pyproject.toml reads it from here (docs/releasing.md)."""

__version__ = "0.1.0"
