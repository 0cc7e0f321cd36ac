"""Rules as data: TOML tables a GM may override with `--rules DIR`."""
