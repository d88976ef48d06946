"""Version of the sightline package (kept in one place; read by pyproject.toml)."""

__version__ = "0.1.0"
SDK_NAME = "sightline-python/" + __version__
