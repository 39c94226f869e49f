"""User-facing errors: each one prints as a single line and exits non-zero."""


class ParawireError(Exception):
    """An error caused by input (config, files, servers) that the user can fix."""


class ConfigError(ParawireError):
    """A configuration value is missing, unknown or out of range."""


class Terminated(KeyboardInterrupt):
    """The process was asked to stop by a signal (its name is the argument, e.g. "SIGTERM"):
    handled like Ctrl-C, so work in progress is recorded as interrupted."""


class OutletsFailed(ParawireError):
    """Some outlets of a crawl, or some of their listings, could not be fetched: the rest was
    crawled and the stages after it ran. Commands end with `exit_code`."""

    exit_code = 4


class NoOutletReached(OutletsFailed):
    """A crawl could fetch nothing from any of its outlets (network down, every host gone or
    answering errors): nothing new to work on, so the stages after it did not run."""

    exit_code = 3
