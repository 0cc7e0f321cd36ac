"""The season's cycle: the calendar, closing steps, readiness, reports, history and the session."""
