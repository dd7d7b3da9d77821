package io.extsock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.extsock.internal.ConnectionPolicy.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConnectionReportTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    @TempDir
    Path directory;

    /** A report for rules of which some ask for iWARP. */
    private ConnectionReport report(LogLevel level) {
        return report(level, 1);
    }

    private ConnectionReport report(LogLevel level, long iwarpRules) {
        return new ConnectionReport(level, new PrintStream(printed, true, StandardCharsets.UTF_8), iwarpRules);
    }

    private String printed() {
        return printed.toString(StandardCharsets.UTF_8);
    }

    private static InetSocketAddress at(String address, int port) throws Exception {
        return new InetSocketAddress(InetAddress.getByName(address), port);
    }

    @Test
    void debugPrintsOneLinePerConnectionAndInfoTheTotals() throws Exception {
        ConnectionReport report = report(LogLevel.DEBUG);
        report.decided(Action.IWARP);
        report.decided(null);
        report.decided(Action.IWARP);
        report.decided(Action.IWARP);
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 9092), "by line 1 'iwarp connect * 9092'",
                Outcome.IWARP, "negotiated");
        report.record(Side.ACCEPT, at("::1", 9092), at("::1", 40001), "no rule matched", Outcome.PLAIN_TCP,
                "no switch asked for");
        report.record(Side.ACCEPT, at("127.0.0.1", 9092), at("127.0.0.1", 40002), "by line 2 'iwarp accept * 9092'",
                Outcome.FELL_BACK, "IWARP_MODE negotiation failed (NOT_AN_IWARP_PEER): ...");
        report.record(Side.CONNECT, at("127.0.0.1", 40003), at("127.0.0.1", 9093), "by line 3 'iwarp connect * 9093'",
                Outcome.FELL_BACK, "IWARP_MODE negotiation failed (TIMEOUT): ...; reconnected from 127.0.0.1:40004");
        report.printSummary();
        assertEquals(String.join(System.lineSeparator(),
                "extsock agent: connect to 127.0.0.1:9092 from 127.0.0.1:40000: iwarp, by line 1 'iwarp connect * 9092'",
                "extsock agent: accept from [0:0:0:0:0:0:0:1]:40001 on [0:0:0:0:0:0:0:1]:9092: tcp, no rule matched",
                "extsock agent: accept from 127.0.0.1:40002 on 127.0.0.1:9092: fell back to tcp (IWARP_MODE negotiation"
                        + " failed (NOT_AN_IWARP_PEER): ...), by line 2 'iwarp accept * 9092'",
                "extsock agent: connect to 127.0.0.1:9093 from 127.0.0.1:40003: fell back to tcp (IWARP_MODE negotiation"
                        + " failed (TIMEOUT): ...; reconnected from 127.0.0.1:40004), by line 3 'iwarp connect * 9093'",
                "extsock agent: 1 iwarp, 2 fell back to tcp, 1 tcp by rule", ""), printed());
    }

    @Test
    void failedSwitchesAreCountedAfterTheThreeTotalsOnlyWhenThereAreAny() throws Exception {
        ConnectionReport report = report(LogLevel.INFO);
        assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule", report.summary());
        report.decided(Action.IWARP);
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 9092), "by line 1 'iwarp connect * 9092'",
                Outcome.FAILED, "io.extsock.IwarpNegotiationException: TIMEOUT");
        report.printSummary();
        assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule, 1 failed" + System.lineSeparator(),
                printed(), "INFO prints no line per connection");
    }

    @Test
    void offPrintsNothing() throws Exception {
        ConnectionReport report = report(LogLevel.OFF);
        report.decided(null);
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 9092), "no rule matched",
                Outcome.PLAIN_TCP, "no switch asked for");
        report.printSummary();
        assertEquals("", printed());
        assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule", report.summary());
    }

    @Test
    void theStartLineNamesTheRulesFileItsRulesFallbackAndWhatIsHooked() throws Exception {
        Path file = Files.writeString(directory.resolve("extsock.rules"),
                "# a comment\niwarp connect 10.0.0.0/8 5432\ntcp connect * *\niwarp accept * 9092\n");
        Rules rules = RulesParser.withSystemResolver().parse(file);
        AgentArguments arguments = AgentArguments.parse("rules=" + file + ",log=info");
        ConnectionReport report = report(LogLevel.INFO);
        report.printStart(arguments, rules, true);
        assertEquals("extsock agent: rules " + file + " (3 rules: 2 iwarp, 1 tcp), fallback on, fallback-wait 1000 ms,"
                + " converting java.net.Socket, java.net.ServerSocket and NIO socket channels" + System.lineSeparator(),
                printed());

        Path one = Files.writeString(directory.resolve("one.rules"), "tcp accept * 80\n");
        assertEquals("extsock agent: rules " + one + " (1 rule: 0 iwarp, 1 tcp), fallback off, fallback-wait 250 ms,"
                + " converting java.net.Socket and java.net.ServerSocket (not NIO channels: the program chose its own"
                + " SelectorProvider, or the JVM chose one before the agent started)",
                ConnectionReport.startLine(AgentArguments.parse("fallback-wait=250,rules=" + one + ",fallback=off"),
                        RulesParser.withSystemResolver().parse(one), false));
    }

    @Test
    void offPrintsNoStartLine() throws Exception {
        Path file = Files.writeString(directory.resolve("extsock.rules"), "iwarp connect * *\n");
        report(LogLevel.OFF).printStart(AgentArguments.parse("rules=" + file), RulesParser.withSystemResolver().parse(file),
                true);
        assertEquals("", printed());
    }

    @Test
    void whenIwarpRulesMatchedNoConnectionTheSummaryIsFollowedByAHint() throws Exception {
        ConnectionReport report = report(LogLevel.INFO, 2);
        report.decided(null);
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 80), "no rule matched", Outcome.PLAIN_TCP,
                "no switch asked for");
        report.decided(Action.TCP);
        report.record(Side.CONNECT, at("127.0.0.1", 40001), at("127.0.0.1", 81), "by line 1 'tcp connect * 81'",
                Outcome.PLAIN_TCP, "no switch asked for");
        report.printSummary();
        assertEquals(String.join(System.lineSeparator(),
                "extsock agent: 0 iwarp, 0 fell back to tcp, 2 tcp by rule",
                "extsock agent: no connection matched an iwarp rule: check the rules' hosts and ports against the 2"
                        + " connections the program made (log=debug prints each)", ""), printed());
    }

    @Test
    void whenTheProgramMadeNoConnectionTheHintSaysSoAndNamesWhatIsNotConverted() {
        ConnectionReport report = report(LogLevel.DEBUG, 1);
        report.printSummary();
        assertEquals(String.join(System.lineSeparator(),
                "extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule",
                "extsock agent: no connection matched an iwarp rule: the program made no connection on java.net sockets"
                        + " or NIO socket channels (asynchronous channels and native transports, such as Netty's epoll,"
                        + " are not converted)", ""), printed());
    }

    @Test
    void noHintOnceAConnectionMatchedAnIwarpRuleWhateverBecameOfIt() throws Exception {
        ConnectionReport report = report(LogLevel.INFO, 1);
        report.decided(Action.IWARP);
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 9092), "by line 1 'iwarp connect * 9092'",
                Outcome.FELL_BACK, "IWARP_MODE negotiation failed (TIMEOUT): ...");
        assertNull(report.hint());
        report.printSummary();
        assertEquals("extsock agent: 0 iwarp, 1 fell back to tcp, 0 tcp by rule" + System.lineSeparator(), printed());
    }

    @Test
    void noHintWhenNoRuleAsksForIwarp() throws Exception {
        ConnectionReport report = report(LogLevel.INFO, 0);
        report.decided(Action.TCP);
        report.record(Side.ACCEPT, at("127.0.0.1", 80), at("127.0.0.1", 40000), "by line 1 'tcp accept * 80'",
                Outcome.PLAIN_TCP, "no switch asked for");
        assertNull(report.hint());
    }
}
