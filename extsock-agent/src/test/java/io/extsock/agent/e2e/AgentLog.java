package io.extsock.agent.e2e;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * What the agent printed on a program's standard error: with log=info or debug its start line
 * ({@code extsock agent: rules FILE (N rules: ...), fallback ..., converting ...}), with log=debug
 * one line per connection ({@code extsock agent: connect to ...: OUTCOME, by line N '...'}), then
 * with log=info or debug the summary at exit, {@code extsock agent: N iwarp, M fell back to tcp, K
 * tcp by rule[, F failed]}, and the hint after it when no connection matched an iwarp rule. Lines
 * of the program's own are left out.
 */
final class AgentLog {

    private static final String PREFIX = "extsock agent: ";
    static final Pattern START = Pattern.compile("extsock agent: rules [^ ]+ \\([0-9]+ rules?: [0-9]+ iwarp, [0-9]+ tcp\\),"
            + " fallback (on|off), fallback-wait [0-9]+ ms, converting java\\.net\\.Socket, java\\.net\\.ServerSocket"
            + " and NIO socket channels");
    static final String HINT = "extsock agent: no connection matched an iwarp rule: ";
    private static final Pattern SUMMARY = Pattern.compile(
            "extsock agent: ([0-9]+) iwarp, ([0-9]+) fell back to tcp, ([0-9]+) tcp by rule(?:, ([0-9]+) failed)?");

    /** The four counts of the summary line. */
    record Summary(int iwarp, int fellBack, int tcpByRule, int failed) {
    }

    private final List<String> connectionLines;
    private final Summary summary;
    private final String hint;
    private final String printed;

    private AgentLog(List<String> connectionLines, Summary summary, String hint, String printed) {
        this.connectionLines = connectionLines;
        this.summary = summary;
        this.hint = hint;
        this.printed = printed;
    }

    /**
     * Reads the agent's lines; fails the test unless the first of them is the start line and the
     * last the summary, or the summary and then the hint.
     */
    static AgentLog of(AgentJvm jvm) throws java.io.IOException {
        List<String> agentLines = jvm.reportLines().stream().filter(line -> line.startsWith(PREFIX))
                .collect(Collectors.toList());
        assertTrue(!agentLines.isEmpty(), "the agent printed nothing after its start line: " + jvm);
        String hint = null;
        if (agentLines.get(agentLines.size() - 1).startsWith(HINT)) {
            hint = agentLines.get(agentLines.size() - 1);
            agentLines = agentLines.subList(0, agentLines.size() - 1);
        }
        assertTrue(!agentLines.isEmpty(), "the agent printed a hint but no summary: " + jvm);
        Matcher summary = SUMMARY.matcher(agentLines.get(agentLines.size() - 1));
        assertTrue(summary.matches(), "the agent's last line is no summary: " + jvm);
        return new AgentLog(agentLines.subList(0, agentLines.size() - 1), new Summary(
                Integer.parseInt(summary.group(1)), Integer.parseInt(summary.group(2)), Integer.parseInt(summary.group(3)),
                summary.group(4) == null ? 0 : Integer.parseInt(summary.group(4))), hint, jvm.toString());
    }

    Summary summary() {
        return summary;
    }

    /** The hint after the summary, or null when the agent gave none. */
    String hint() {
        return hint;
    }

    /** The debug lines, one per connection, in the order their outcomes were known. */
    List<String> connectionLines() {
        return connectionLines;
    }

    /** The one connection line of the connection from or to this port of the peer's (the relay's, say). */
    String lineOfPeerPort(int port) {
        List<String> matching = connectionLines.stream()
                .filter(line -> line.matches("extsock agent: (connect to|accept from) [^ ]+:" + port + " .*"))
                .collect(Collectors.toList());
        assertEquals(1, matching.size(), "lines for peer port " + port + " in " + printed);
        return matching.get(0);
    }

    /** Fails unless the summary counts exactly the connection lines of each outcome (log=debug). */
    void assertSummaryCountsTheLines() {
        assertEquals(new Summary(count(": iwarp, "), count(": fell back to tcp ("), count(": tcp, "),
                count(": failed, socket closed (")), summary, printed);
    }

    private int count(String outcome) {
        return (int) connectionLines.stream().filter(line -> line.contains(outcome)).count();
    }
}
