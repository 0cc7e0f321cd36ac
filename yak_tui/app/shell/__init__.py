"""The app shell: what every seat reaches from any screen (help, who you are, reports, history, the
season's advance and export) and the GM's World editor; the rule areas' own screens live in `app/screens/`."""
