"""The score keeper in the web app: its API, its offline files and the scoring examples."""
