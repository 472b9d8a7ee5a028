"""houserules: the application (command line, play, search engine and UCI)."""
