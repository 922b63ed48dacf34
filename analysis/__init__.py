"""The analysis of a run, in layers that import downward only (test_layers.py holds it): load reads a run's records;
stats compares clients on a figure; decide makes each judgment once, into summary.json; report draws and formats what
was decided (the notebook, report.html, README's blocks); cli and compact are the commands. testkit is the tests'."""
