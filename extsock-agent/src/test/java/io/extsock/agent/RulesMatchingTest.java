package io.extsock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which rule decides a connection: prefixes, port ranges, '*', sides, and the first match winning. */
class RulesMatchingTest {

    @TempDir
    static Path directory;

    private static Rules rules;

    private static Rules rules() throws IOException, RulesFileException {
        if (rules == null) {
            Path file = directory.resolve("rules");
            Files.writeString(file, String.join("\n",
                    "tcp   connect 10.1.2.3      5432        # line 1: one host excepted from the network below",
                    "iwarp connect 10.1.0.0/16   5432",
                    "iwarp connect 192.168.1.0/25 7000-7010",
                    "iwarp connect 2001:db8::/32 *",
                    "iwarp connect 172.16.0.0/12 9000",
                    "tcp   connect ::/0          80",
                    "iwarp connect *             80",         // after the line above: IPv4 only
                    "iwarp accept  127.0.0.1     9092",
                    "iwarp accept  ::1/128       9092",
                    "iwarp connect 0.0.0.0/0     443",
                    "tcp   accept  *             *"), StandardCharsets.UTF_8);
            rules = new RulesParser(name -> {
                throw new UnknownHostException(name);
            }).parse(file);
        }
        return rules;
    }

    private static String decide(Side side, String address, int port) throws Exception {
        return rules().firstMatch(side, new InetSocketAddress(InetAddress.getByName(address), port))
                .map(Rule::describe).orElse("none");
    }

    @ParameterizedTest(name = "{0} {1} port {2} -> {3}")
    @CsvSource(delimiter = '|', value = {
        // the first match wins: the tcp exception on line 1 comes before the network of line 2
        "CONNECT | 10.1.2.3        | 5432  | line 1 'tcp connect 10.1.2.3 5432'",
        "CONNECT | 10.1.2.4        | 5432  | line 2 'iwarp connect 10.1.0.0/16 5432'",
        "CONNECT | 10.1.255.255    | 5432  | line 2 'iwarp connect 10.1.0.0/16 5432'",
        "CONNECT | 10.2.0.1        | 5432  | none",
        "CONNECT | 10.1.2.4        | 5433  | none",
        // a /25: the low half of the last octet only; a range: both ends included
        "CONNECT | 192.168.1.127   | 7000  | line 3 'iwarp connect 192.168.1.0/25 7000-7010'",
        "CONNECT | 192.168.1.128   | 7000  | none",
        "CONNECT | 192.168.1.0     | 7010  | line 3 'iwarp connect 192.168.1.0/25 7000-7010'",
        "CONNECT | 192.168.1.0     | 6999  | none",
        "CONNECT | 192.168.1.0     | 7011  | none",
        // IPv6 prefix, every port
        "CONNECT | 2001:db8:ffff::1 | 1    | line 4 'iwarp connect 2001:db8::/32 *'",
        "CONNECT | 2001:db9::1     | 80    | line 6 'tcp connect ::/0 80'",
        // /12 that does not end on an octet: 172.16.0.0 to 172.31.255.255
        "CONNECT | 172.31.255.255  | 9000  | line 5 'iwarp connect 172.16.0.0/12 9000'",
        "CONNECT | 172.32.0.0      | 9000  | none",
        "CONNECT | 172.15.255.255  | 9000  | none",
        // ::/0 is every IPv6 address and no IPv4 one; * is both
        "CONNECT | 192.0.2.1       | 80    | line 7 'iwarp connect * 80'",
        // accept rules by the local address and port; connect rules never decide accepted connections
        "ACCEPT  | 127.0.0.1       | 9092  | line 8 'iwarp accept 127.0.0.1 9092'",
        "ACCEPT  | ::1             | 9092  | line 9 'iwarp accept ::1/128 9092'",
        "ACCEPT  | 127.0.0.2       | 9092  | line 11 'tcp accept * *'",
        "ACCEPT  | 10.1.2.4        | 5432  | line 11 'tcp accept * *'",
        "CONNECT | 127.0.0.1       | 9092  | none",
        "CONNECT | 8.8.8.8         | 443   | line 10 'iwarp connect 0.0.0.0/0 443'",
        "CONNECT | 2001:db9::1     | 443   | none",
    })
    void theFirstMatchingRuleDecides(Side side, String address, int port, String expected) throws Exception {
        assertEquals(expected, decide(side, address, port));
    }

    @Test
    void aV4NetworkNeverMatchesV6AndTheOtherWayRound() throws Exception {
        assertEquals("line 10 'iwarp connect 0.0.0.0/0 443'", decide(Side.CONNECT, "::ffff:8.8.8.8", 443),
                "the JDK gives an IPv4-mapped address as IPv4");
        assertEquals("none", decide(Side.CONNECT, "::8.8.8.8", 443), "an IPv4-compatible address stays IPv6");
    }

    @Test
    void aNetworkIsMatchedByItsLeadingBitsOnly() throws UnknownHostException {
        AddressPattern.Network zero = new AddressPattern.Network(InetAddress.getByName("0.0.0.0"), 0);
        assertEquals(true, zero.contains(InetAddress.getByName("255.255.255.255")));
        AddressPattern.Network host = new AddressPattern.Network(InetAddress.getByName("10.0.0.1"), 32);
        assertEquals(false, host.contains(InetAddress.getByName("10.0.0.0")));
        AddressPattern.Network odd = new AddressPattern.Network(InetAddress.getByName("fe80::"), 10);
        assertEquals(true, odd.contains(InetAddress.getByName("febf:ffff::1")));
        assertEquals(false, odd.contains(InetAddress.getByName("fec0::1")));
    }
}
