package io.extsock.agent;

import static io.extsock.internal.SocketAddresses.hostAndPort;

import io.extsock.internal.ConnectionPolicy.Outcome;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the agent says on standard error. From INFO up: one line at start ({@link #startLine}: the
 * rules, fallback, what is hooked), so that an agent that loaded but matched nothing does not look
 * like one that never loaded; the totals at exit ({@link #summary}); and after them a hint when
 * the rules ask for iWARP but no connection matched an iwarp rule ({@link #hint}). At DEBUG also
 * one line per connection. A connection that matched no rule counts as "tcp by rule": no match is
 * the implicit last rule, plain TCP.
 */
final class ConnectionReport {

    /** What the agent hooks: said at start. */
    static final String HOOKED = "java.net.Socket, java.net.ServerSocket and NIO socket channels";
    /** What the agent hooks when the JVM's NIO provider is not its to choose. */
    static final String HOOKED_WITHOUT_NIO = "java.net.Socket and java.net.ServerSocket (not NIO channels: the"
            + " program chose its own SelectorProvider, or the JVM chose one before the agent started)";

    private final LogLevel level;
    private final PrintStream out;
    private final long iwarpRules;
    private final AtomicLong decided = new AtomicLong();
    private final AtomicLong matchedIwarpRule = new AtomicLong();
    private final AtomicLong iwarp = new AtomicLong();
    private final AtomicLong fellBack = new AtomicLong();
    private final AtomicLong tcpByRule = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    /**
     * @param iwarpRules how many of the rules are iwarp rules: with none, no connection is expected
     *                   to match one, and the exit gives no hint
     */
    ConnectionReport(LogLevel level, PrintStream out, long iwarpRules) {
        this.level = level;
        this.out = out;
        this.iwarpRules = iwarpRules;
    }

    /**
     * @return {@code extsock agent: rules FILE (N rules: I iwarp, T tcp), fallback on|off,
     *         fallback-wait MS ms, converting java.net.Socket and java.net.ServerSocket (not NIO
     *         channels)}
     */
    static String startLine(AgentArguments arguments, Rules rules, boolean channels) {
        return "extsock agent: rules " + arguments.rulesFile() + " (" + rules.size()
                + (rules.size() == 1 ? " rule: " : " rules: ") + rules.count(Action.IWARP) + " iwarp, "
                + rules.count(Action.TCP) + " tcp), fallback " + (arguments.fallback() ? "on" : "off")
                + ", fallback-wait " + arguments.fallbackWaitMillis() + " ms, converting "
                + (channels ? HOOKED : HOOKED_WITHOUT_NIO);
    }

    /** Prints the start line from INFO up; the agent calls this once its factories are in place. */
    void printStart(AgentArguments arguments, Rules rules, boolean channels) {
        if (level != LogLevel.OFF) {
            out.println(startLine(arguments, rules, channels));
        }
    }

    /**
     * A connection's rule was chosen (before its outcome is known).
     *
     * @param action the matching rule's action, or null when no rule matched
     */
    void decided(Action action) {
        decided.incrementAndGet();
        if (action == Action.IWARP) {
            matchedIwarpRule.incrementAndGet();
        }
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

    /**
     * @return what to check when the rules ask for iWARP and no connection matched an iwarp rule,
     *         or null when some connection did, or the rules ask for none
     */
    String hint() {
        if (iwarpRules == 0 || matchedIwarpRule.get() > 0) {
            return null;
        }
        long connections = decided.get();
        if (connections == 0) {
            return "extsock agent: no connection matched an iwarp rule: the program made no connection on"
                    + " java.net sockets or NIO socket channels (asynchronous channels and native transports, such"
                    + " as Netty's epoll, are not converted)";
        }
        return "extsock agent: no connection matched an iwarp rule: check the rules' hosts and ports against the "
                + connections + (connections == 1 ? " connection" : " connections")
                + " the program made (log=debug prints each)";
    }

    /** Prints the summary, and the hint if any, from INFO up; the agent runs this in a shutdown hook. */
    void printSummary() {
        if (level != LogLevel.OFF) {
            out.println(summary());
            String hint = hint();
            if (hint != null) {
                out.println(hint);
            }
        }
    }
}
