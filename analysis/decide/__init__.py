"""Each judgment, made once from the run's records: startup, behaviour, host conditions, layer cost, pairs, the verdict, an
upgrade."""
