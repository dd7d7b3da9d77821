package io.extsock.examples.cli;

import java.util.Collection;

/** The name a user most likely meant: one within two typing mistakes of what was typed. */
final class Typos {

    /** The most mistakes a suggestion may be away from what was typed. */
    static final int MAX_DISTANCE = 2;

    private Typos() {
    }

    /** The nearest of {@code names} to {@code typed}, if within {@link #MAX_DISTANCE}; the first of equals. */
    static String nearest(String typed, Collection<String> names) {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (String name : names) {
            int distance = distance(typed, name);
            if (distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        return best;
    }

    /**
     * Typing mistakes between two words: characters inserted, deleted, replaced, or two
     * neighbours swapped (the optimal string alignment distance).
     */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
