package io.extsock.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RulesParserTest {

    @TempDir
    Path directory;

    /** Names the tests resolve, without DNS: db.example resolves to two addresses, nothing else resolves. */
    private final RulesParser parser = new RulesParser(name -> {
        Map<String, InetAddress[]> known = Map.of("db.example", new InetAddress[] {
            InetAddress.getByName("192.0.2.7"), InetAddress.getByName("2001:db8::7")});
        InetAddress[] addresses = known.get(name);
        if (addresses == null) {
            throw new UnknownHostException(name + ": Name or service not known");
        }
        return addresses;
    });

    private Path file(String... lines) throws IOException {
        Path file = directory.resolve("rules");
        Files.write(file, String.join("\n", lines).getBytes(StandardCharsets.UTF_8));
        return file;
    }

    private static InetSocketAddress at(String address, int port) throws UnknownHostException {
        return new InetSocketAddress(InetAddress.getByName(address), port);
    }

    @Test
    void commentsAndBlankLinesAreIgnored() throws Exception {
        Rules rules = parser.parse(file(
                "# whole-line comment",
                "",
                "   ",
                "iwarp connect 10.0.0.1 5432   # trailing comment",
                "\ttcp\taccept * *\t"));
        assertEquals(2, rules.size());
        assertEquals(Action.IWARP, rules.firstMatch(Side.CONNECT, at("10.0.0.1", 5432)).orElseThrow().action());
        assertEquals(Action.TCP, rules.firstMatch(Side.ACCEPT, at("10.9.9.9", 1)).orElseThrow().action());
    }

    @Test
    void anEmptyFileHasNoRules() throws Exception {
        Rules rules = parser.parse(file("# nothing but a comment"));
        assertEquals(0, rules.size());
        assertTrue(rules.firstMatch(Side.CONNECT, at("127.0.0.1", 80)).isEmpty());
    }

    @Test
    void aHostNameStandsForEveryAddressItResolvedTo() throws Exception {
        Rules rules = parser.parse(file("iwarp connect db.example 5432"));
        assertTrue(rules.firstMatch(Side.CONNECT, at("192.0.2.7", 5432)).isPresent());
        assertTrue(rules.firstMatch(Side.CONNECT, at("2001:db8::7", 5432)).isPresent());
        assertTrue(rules.firstMatch(Side.CONNECT, at("192.0.2.8", 5432)).isEmpty());
    }

    @Test
    void aMissingFileIsNamed() {
        Path missing = directory.resolve("no-such-rules");
        RulesFileException e = assertThrows(RulesFileException.class, () -> parser.parse(missing));
        assertEquals(missing, e.file());
        assertEquals(RulesFileException.NO_LINE, e.line());
        assertEquals("rules file " + missing + ": no such file", e.getMessage());
    }

    @Test
    void aFileThatIsNotTextIsNamed() throws IOException {
        Path binary = directory.resolve("binary");
        Files.write(binary, new byte[] {(byte) 0xC3, (byte) 0x28, '\n'});
        RulesFileException e = assertThrows(RulesFileException.class, () -> parser.parse(binary));
        assertEquals("rules file " + binary + ": not UTF-8 text", e.getMessage());
    }

    /** Each bad rule on line 3 (after a comment and a good rule): the message names file, line and problem. */
    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
        "iwarp connect 10.0.0.1            | expected 4 fields, ACTION SIDE HOST[/PREFIX] PORTS, found 3 in 'iwarp connect 10.0.0.1'",
        "iwarp connect 10.0.0.1 80 extra   | expected 4 fields, ACTION SIDE HOST[/PREFIX] PORTS, found 5 in 'iwarp connect 10.0.0.1 80 extra'",
        "iwrap connect 10.0.0.1 80         | unknown action 'iwrap': expected iwarp or tcp",
        "IWARP connect 10.0.0.1 80         | unknown action 'IWARP': expected iwarp or tcp",
        "iwarp listen 10.0.0.1 80          | unknown side 'listen': expected connect or accept",
        "iwarp connect 10.0.0.256 80       | '10.0.0.256' is not an IPv4 address (four numbers, 0 to 255, with dots)",
        "iwarp connect 10.1 80             | '10.1' is not an IPv4 address (four numbers, 0 to 255, with dots)",
        "iwarp connect 2001:db8::g 80      | '2001:db8::g' is not an IPv6 address",
        "iwarp connect 10.0.0.0/33 80      | prefix /33 is out of range for an IPv4 address (0 to 32)",
        "iwarp connect fe80::/129 80       | prefix /129 is out of range for an IPv6 address (0 to 128)",
        "iwarp connect 10.0.0.0/x 80       | prefix '/x' is not a number",
        "iwarp connect 10.0.0.0/ 80        | prefix '/' is not a number",
        "iwarp connect */8 80              | '*' takes no prefix: write '*' alone for every address",
        "iwarp connect db.example/24 80    | a prefix needs an IP address, not the host name 'db.example'",
        "iwarp connect nowhere.example 80  | host name 'nowhere.example' does not resolve: nowhere.example: Name or service not known",
        "iwarp connect bad_name! 80        | 'bad_name!' is neither an IP address nor a host name",
        "iwarp connect 10.0.0.1 http       | port 'http' is not a number (PORTS is N, N-M or *)",
        "iwarp connect 10.0.0.1 0          | port 0 is out of range (1 to 65535)",
        "iwarp connect 10.0.0.1 65536      | port 65536 is out of range (1 to 65535)",
        "iwarp connect 10.0.0.1 90-80      | port range 90-80 is empty: 90 is above 80",
        "iwarp connect 10.0.0.1 80-        | port '' is not a number (PORTS is N, N-M or *)",
        "iwarp connect 10.0.0.1 -80        | port '' is not a number (PORTS is N, N-M or *)",
        "iwarp connect 10.0.0.1 80-90-100  | port '90-100' is not a number (PORTS is N, N-M or *)",
    })
    void eachBadRuleIsNamedByFileLineAndProblem(String rule, String problem) throws IOException {
        Path file = file("# rules", "tcp connect * 22", rule, "tcp accept * *");
        RulesFileException e = assertThrows(RulesFileException.class, () -> parser.parse(file));
        assertEquals(file, e.file());
        assertEquals(3, e.line());
        assertEquals(problem, e.problem());
        assertEquals("rules file " + file + ", line 3: " + problem, e.getMessage());
    }
}
