// Placeholder: the benchmark harness and suites replace this file.
print("no benchmark suites yet")
