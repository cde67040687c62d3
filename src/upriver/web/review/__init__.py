"""The review: a table's finished rounds, and a hand or record a person brings."""
