"""Content streams: the lexer, the text-state interpreter (pure and native), optional content
and what is hidden."""
