package io.extsock.agent;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Reads a rules file: one rule a line, {@code ACTION SIDE HOST[/PREFIX] PORTS}, fields separated
 * by blanks; {@code #} starts a comment (a whole line or the rest of one); blank lines count for
 * nothing. Host names are resolved here, once, to all their addresses: the agent never waits for
 * DNS on a connection, and a name that does not resolve is an error at start, not a rule that
 * silently never matches.
 */
final class RulesParser {

    /** Resolves a host name to its addresses; the JDK's resolver outside tests. */
    @FunctionalInterface
    interface HostResolver {
        InetAddress[] resolve(String hostName) throws UnknownHostException;
    }

    private static final Pattern IPV4_LITERAL = Pattern.compile("[0-9]+(\\.[0-9]+){3}");
    private static final Pattern DOTTED_NUMBERS = Pattern.compile("[0-9.]+");
    /** RFC 1123 labels: letters, digits and hyphens, not starting or ending with a hyphen. */
    private static final Pattern HOST_NAME = Pattern.compile(
            "(?i)[a-z0-9]([a-z0-9-]*[a-z0-9])?(\\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*\\.?");
    private static final Pattern DIGITS = Pattern.compile("[0-9]{1,9}");

    private final HostResolver resolver;

    RulesParser(HostResolver resolver) {
        this.resolver = resolver;
    }

    /** A parser that resolves host names with {@link InetAddress#getAllByName}. */
    static RulesParser withSystemResolver() {
        return new RulesParser(InetAddress::getAllByName);
    }

    Rules parse(Path file) throws RulesFileException {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new RulesFileException(file, RulesFileException.NO_LINE, "no such file", e);
        } catch (MalformedInputException e) {
            throw new RulesFileException(file, RulesFileException.NO_LINE, "not UTF-8 text", e);
        } catch (IOException e) {
            throw new RulesFileException(file, RulesFileException.NO_LINE, "cannot be read: " + e, e);
        }
        List<Rule> rules = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            int lineNumber = i + 1;
            String text = withoutComment(lines.get(i)).strip();
            if (text.isEmpty()) {
                continue;
            }
            try {
                rules.add(parseRule(text, lineNumber));
            } catch (BadRule e) {
                throw new RulesFileException(file, lineNumber, e.getMessage(), e.getCause());
            }
        }
        return new Rules(rules);
    }

    private static String withoutComment(String line) {
        int hash = line.indexOf('#');
        return hash < 0 ? line : line.substring(0, hash);
    }

    private Rule parseRule(String text, int line) throws BadRule {
        String[] fields = text.split("\\s+");
        if (fields.length != 4) {
            throw new BadRule("expected 4 fields, ACTION SIDE HOST[/PREFIX] PORTS, found " + fields.length
                    + " in '" + text + "'");
        }
        return new Rule(action(fields[0]), side(fields[1]), hosts(fields[2]), ports(fields[3]), line,
                String.join(" ", fields));
    }

    private static Action action(String word) throws BadRule {
        for (Action action : Action.values()) {
            if (action.word().equals(word)) {
                return action;
            }
        }
        throw new BadRule("unknown action '" + word + "': expected iwarp or tcp");
    }

    private static Side side(String word) throws BadRule {
        for (Side side : Side.values()) {
            if (side.word().equals(word)) {
                return side;
            }
        }
        throw new BadRule("unknown side '" + word + "': expected connect or accept");
    }

    private AddressPattern hosts(String field) throws BadRule {
        int slash = field.indexOf('/');
        String host = slash < 0 ? field : field.substring(0, slash);
        String prefix = slash < 0 ? null : field.substring(slash + 1);
        if (host.equals("*")) {
            if (prefix != null) {
                throw new BadRule("'*' takes no prefix: write '*' alone for every address");
            }
            return AddressPattern.ANY;
        }
        InetAddress literal = ipLiteral(host);
        if (literal == null) {
            if (prefix != null) {
                throw new BadRule("a prefix needs an IP address, not the host name '" + host + "'");
            }
            return AddressPattern.of(resolved(host));
        }
        int maxPrefix = literal.getAddress().length * 8;
        int length = maxPrefix;
        if (prefix != null) {
            if (!DIGITS.matcher(prefix).matches()) {
                throw new BadRule("prefix '/" + prefix + "' is not a number");
            }
            length = Integer.parseInt(prefix);
            if (length > maxPrefix) {
                throw new BadRule("prefix /" + length + " is out of range for " + (maxPrefix == 32 ? "an IPv4" : "an IPv6")
                        + " address (0 to " + maxPrefix + ")");
            }
        }
        return AddressPattern.of(List.of(new AddressPattern.Network(literal, length)));
    }

    /** @return the address an IP literal names (no DNS involved), or null for a host name */
    private static InetAddress ipLiteral(String host) throws BadRule {
        boolean ipv6 = host.indexOf(':') >= 0;
        if (!ipv6 && !DOTTED_NUMBERS.matcher(host).matches()) {
            return null;
        }
        if (!ipv6) {
            // InetAddress would take "10.1" as 10.0.0.1: a rules file wants the four parts written.
            if (!IPV4_LITERAL.matcher(host).matches()) {
                throw new BadRule("'" + host + "' is not an IPv4 address (four numbers, 0 to 255, with dots)");
            }
            for (String part : host.split("\\.")) {
                if (part.length() > 3 || Integer.parseInt(part) > 255) {
                    throw new BadRule("'" + host + "' is not an IPv4 address (four numbers, 0 to 255, with dots)");
                }
            }
        }
        try {
            // A literal is parsed, never looked up.
            return InetAddress.getByName(ipv6 ? "[" + host + "]" : host);
        } catch (UnknownHostException e) {
            throw new BadRule("'" + host + "' is not an IPv6 address", e);
        }
    }

    private List<AddressPattern.Network> resolved(String host) throws BadRule {
        if (!HOST_NAME.matcher(host).matches()) {
            throw new BadRule("'" + host + "' is neither an IP address nor a host name");
        }
        InetAddress[] addresses;
        try {
            addresses = resolver.resolve(host);
        } catch (UnknownHostException e) {
            throw new BadRule("host name '" + host + "' does not resolve: " + e.getMessage(), e);
        }
        List<AddressPattern.Network> networks = new ArrayList<>();
        for (InetAddress address : addresses) {
            networks.add(new AddressPattern.Network(address, address.getAddress().length * 8));
        }
        if (networks.isEmpty()) {
            throw new BadRule("host name '" + host + "' resolves to no address");
        }
        return networks;
    }

    private static PortRange ports(String field) throws BadRule {
        if (field.equals("*")) {
            return PortRange.ANY;
        }
        int dash = field.indexOf('-');
        if (dash < 0) {
            int port = port(field);
            return new PortRange(port, port);
        }
        int first = port(field.substring(0, dash));
        int last = port(field.substring(dash + 1));
        if (first > last) {
            throw new BadRule("port range " + field + " is empty: " + first + " is above " + last);
        }
        return new PortRange(first, last);
    }

    private static int port(String text) throws BadRule {
        if (!DIGITS.matcher(text).matches()) {
            throw new BadRule("port '" + text + "' is not a number (PORTS is N, N-M or *)");
        }
        int port = Integer.parseInt(text);
        if (port < PortRange.MIN_PORT || port > PortRange.MAX_PORT) {
            throw new BadRule("port " + port + " is out of range (" + PortRange.MIN_PORT + " to " + PortRange.MAX_PORT + ")");
        }
        return port;
    }

    /** One rule's problem, before the file and line are added to it. */
    private static final class BadRule extends Exception {
        private static final long serialVersionUID = 1L;

        BadRule(String problem) {
            super(problem);
        }

        BadRule(String problem, Throwable cause) {
            super(problem, cause);
        }
    }
}
