/**
 * Interleaved sets: every client's fork alive at once, the turn passed among them window by window. Used by
 * clientbench.run; uses clientbench.harness's {@code TurnTaker} (the fork's side of the same lines) and nothing above
 * it.
 */
package clientbench.interleave;
