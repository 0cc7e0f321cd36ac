"""Delivering the season where the players are (issue 31): the GM's channels (`channels`), Discord
webhooks (`discord`), e-mail (`mail`), a map picture per reader (`mapsvg`), the season's post and
reports sent to them (`post`) and deadline nudges (`nudge`). A front end of the kernel, like `cli`
and `serve`: it reads the save, never changes it, and never imports Textual."""
