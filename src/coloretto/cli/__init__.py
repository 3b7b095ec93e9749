"""The ``coloretto`` command: one module per subcommand, each with ``register(subparsers)``."""
