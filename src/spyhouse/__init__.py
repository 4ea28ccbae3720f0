"""spyhouse: a play-by-web host for hidden-information spy games."""

__version__ = "0.1.0"
