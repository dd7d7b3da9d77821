package io.extsock.agent;

import static io.extsock.internal.SocketAddresses.hostAndPort;

import io.extsock.internal.ConnectionPolicy.Outcome;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts what became of the converted connections and prints it: one line per connection at
 * DEBUG, the totals at exit from INFO up ({@link #summary}). A connection that matched no rule
 * counts as "tcp by rule": no match is the implicit last rule, plain TCP.
 */
final class ConnectionReport {

    private final LogLevel level;
    private final PrintStream out;
    private final AtomicLong iwarp = new AtomicLong();
    private final AtomicLong fellBack = new AtomicLong();
    private final AtomicLong tcpByRule = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    ConnectionReport(LogLevel level, PrintStream out) {
        this.level = level;
        this.out = out;
    }

    /**
     * @param side      CONNECT for a connection this program made, ACCEPT for one it accepted
     * @param local     its local address
     * @param remote    its peer
     * @param decidedBy what decided it: "by line N 'RULE'", or "no rule matched"
     * @param outcome   what became of it
     * @param detail    why, for a failure or fallback
     */
    void record(Side side, InetSocketAddress local, InetSocketAddress remote, String decidedBy, Outcome outcome,
            String detail) {
        String result;
        switch (outcome) {
            case IWARP:
                iwarp.incrementAndGet();
                result = "iwarp";
                break;
            case FELL_BACK:
                fellBack.incrementAndGet();
                result = "fell back to tcp (" + detail + ")";
                break;
            case FAILED:
                failed.incrementAndGet();
                result = "failed, socket closed (" + detail + ")";
                break;
            case PLAIN_TCP:
                tcpByRule.incrementAndGet();
                result = "tcp";
                break;
            default:
                throw new IllegalArgumentException("unknown outcome " + outcome);
        }
        if (level == LogLevel.DEBUG) {
            String peer = side == Side.CONNECT
                    ? "connect to " + hostAndPort(remote) + " from " + hostAndPort(local)
                    : "accept from " + hostAndPort(remote) + " on " + hostAndPort(local);
            out.println("extsock agent: " + peer + ": " + result + ", " + decidedBy);
        }
    }

    /**
     * @return {@code extsock agent: N iwarp, M fell back to tcp, K tcp by rule}, and {@code , F
     *         failed} after it when switches failed (the socket closed, with no fallback)
     */
    String summary() {
        String line = "extsock agent: " + iwarp.get() + " iwarp, " + fellBack.get() + " fell back to tcp, "
                + tcpByRule.get() + " tcp by rule";
        long failures = failed.get();
        return failures == 0 ? line : line + ", " + failures + " failed";
    }

    /** Prints the summary from INFO up; the agent runs this in a shutdown hook. */
    void printSummary() {
        if (level != LogLevel.OFF) {
            out.println(summary());
        }
    }
}
