"""What only the tests (and the docs block they check) use: the A/A and planted-difference simulation."""
