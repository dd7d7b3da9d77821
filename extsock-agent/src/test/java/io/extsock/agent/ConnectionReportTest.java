package io.extsock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.extsock.internal.ConnectionPolicy.Outcome;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ConnectionReportTest {

    private final ByteArrayOutputStream printed = new ByteArrayOutputStream();

    private ConnectionReport report(LogLevel level) {
        return new ConnectionReport(level, new PrintStream(printed, true, StandardCharsets.UTF_8));
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
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 9092), "by line 1 'iwarp connect * 9092'",
                Outcome.FAILED, "io.extsock.IwarpNegotiationException: TIMEOUT");
        report.printSummary();
        assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 0 tcp by rule, 1 failed" + System.lineSeparator(),
                printed(), "INFO prints no line per connection");
    }

    @Test
    void offPrintsNothing() throws Exception {
        ConnectionReport report = report(LogLevel.OFF);
        report.record(Side.CONNECT, at("127.0.0.1", 40000), at("127.0.0.1", 9092), "no rule matched",
                Outcome.PLAIN_TCP, "no switch asked for");
        report.printSummary();
        assertEquals("", printed());
        assertEquals("extsock agent: 0 iwarp, 0 fell back to tcp, 1 tcp by rule", report.summary());
    }
}
