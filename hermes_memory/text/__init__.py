"""Reading text, with no store and no model: names and relations (mentions, extract),
known names (gazetteer), dates and what ends a fact (temporal), and the durable
statements of a person's turn (statements). Pure functions; every tier above may use
them, and they use nothing of the package but each other."""
