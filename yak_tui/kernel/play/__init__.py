"""Playing a season: commands and their authority, audiences, orders, the chronicle, dice and the ledger."""
