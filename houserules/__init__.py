"""houserules, the application: the command line and the tools built on the
rule packages (the self-play lab in :mod:`houserules.lab`)."""
