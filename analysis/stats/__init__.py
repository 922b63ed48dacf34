"""Statistics on what load read: pairwise comparison of clients on one figure, and the quantiles it asks scipy for."""
