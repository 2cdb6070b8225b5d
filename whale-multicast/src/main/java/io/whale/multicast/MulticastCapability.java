package io.whale.multicast;

/**
 * Multicast capability L(t) of a non-blocking tree (paper Definition 2, Eq. 6/7), counted here as the number of
 * nodes holding a tuple after t time units, the source included (L(0) = 1):
 * L(t) = 2·L(t−1) for t ≤ d*, and 2·L(t−1) − L(t−d*−1) after, because a holder sends one copy per time unit
 * for d* units and then stops. With d* ≥ ⌈log2(n+1)⌉ the second case never binds before all n+1 nodes hold the
 * tuple (Eq. 6, the binomial tree).
 */
public final class MulticastCapability {
    private MulticastCapability() {
    }

    /** L(0..steps) for n destinations and bound d*, capped at n + 1 once every node holds the tuple. */
    public static long[] holders(int destinations, int maxOutDegree, int steps) {
        if (maxOutDegree < 1 || destinations < 0 || steps < 0) {
            throw new IllegalArgumentException("need d* >= 1, n >= 0, steps >= 0");
        }
        long all = destinations + 1L;
        long[] l = new long[steps + 1];
        l[0] = 1;
        for (int t = 1; t <= steps; t++) {
            if (l[t - 1] >= all) {
                l[t] = all;
                continue;
            }
            long dropped = t - maxOutDegree - 1 >= 0 ? l[t - maxOutDegree - 1] : 0;
            l[t] = Math.min(all, 2 * l[t - 1] - dropped);
        }
        return l;
    }

    /** The smallest t with L(t) = n + 1: the completion steps of the tree Algorithm 1 builds, and a lower bound for any tree with out-degrees ≤ d*. */
    public static int stepsToReachAll(int destinations, int maxOutDegree) {
        int steps = 0;
        long[] l = holders(destinations, maxOutDegree, Math.max(1, destinations));
        while (l[steps] < destinations + 1L) {
            steps++;
        }
        return steps;
    }
}
