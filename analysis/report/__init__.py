"""What a reader sees of a decided run: estimates per figure, the figures, the tables, and the rendered report."""
