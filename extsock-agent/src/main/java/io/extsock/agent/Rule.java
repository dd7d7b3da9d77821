package io.extsock.agent;

import java.net.InetSocketAddress;

/** One line of a rules file: {@code ACTION SIDE HOST[/PREFIX] PORTS}. */
final class Rule {

    private final Action action;
    private final Side side;
    private final AddressPattern hosts;
    private final PortRange ports;
    private final int line;
    private final String text;

    /**
     * @param line the line of the rules file it came from (for the debug log)
     * @param text the rule as written, without its comment (for the debug log)
     */
    Rule(Action action, Side side, AddressPattern hosts, PortRange ports, int line, String text) {
        this.action = action;
        this.side = side;
        this.hosts = hosts;
        this.ports = ports;
        this.line = line;
        this.text = text;
    }

    /**
     * @param address for CONNECT the destination, for ACCEPT the local address the connection arrived at
     */
    boolean matches(Side side, InetSocketAddress address) {
        return this.side == side && ports.contains(address.getPort()) && hosts.matches(address.getAddress());
    }

    Action action() {
        return action;
    }

    /** @return where the rule comes from and what it says, as the debug log names it */
    String describe() {
        return "line " + line + " '" + text + "'";
    }
}
