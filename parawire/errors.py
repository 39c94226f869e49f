"""User-facing errors: each one prints as a single line and exits non-zero."""


class ParawireError(Exception):
    """An error caused by input (config, files, servers) that the user can fix."""


class ConfigError(ParawireError):
    """A configuration value is missing, unknown or out of range."""


class Terminated(KeyboardInterrupt):
    """The process was asked to stop by a signal (its name is the argument, e.g. "SIGTERM"):
    handled like Ctrl-C, so work in progress is recorded as interrupted."""
