/**
 * Every NO of the behaviour table, reproduced with the library alone: each test drives one library's own API, as its
 * users call it, against the stub habit the case provokes, and asserts the count the case marked. Nothing here goes
 * through an adapter: it may use the stub, the thresholds (harness.record.Thresholds), the libraries and JUnit, and no other
 * clientbench package.
 */
package clientbench.behaviour.alone;
