package io.extsock.agent;

import io.extsock.internal.ConnectionPolicy;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.util.Map;
import java.util.Optional;

/**
 * The rules applied to one converted socket's connection: the first matching rule decides, and
 * the outcome goes to the report with the rule that decided it.
 */
final class RulePolicy implements ConnectionPolicy {

    private final Rules rules;
    private final Map<SocketOption<?>, Object> iwarpOptions;
    private final ConnectionReport report;

    // Set by optionsFor, read by outcome: one connection, reported once.
    private volatile Side side;
    private volatile InetSocketAddress local;
    private volatile InetSocketAddress remote;
    private volatile String decidedBy;

    RulePolicy(Rules rules, Map<SocketOption<?>, Object> iwarpOptions, ConnectionReport report) {
        this.rules = rules;
        this.iwarpOptions = iwarpOptions;
        this.report = report;
    }

    @Override
    public Map<SocketOption<?>, Object> optionsFor(InetSocketAddress local, InetSocketAddress remote, boolean initiator) {
        this.side = initiator ? Side.CONNECT : Side.ACCEPT;
        this.local = local;
        this.remote = remote;
        // Outgoing connections are matched by where they go, incoming ones by where they arrived.
        Optional<Rule> rule = rules.firstMatch(side, initiator ? remote : local);
        decidedBy = rule.map(matched -> "by " + matched.describe()).orElse("no rule matched");
        report.decided(rule.map(Rule::action).orElse(null));
        return rule.isPresent() && rule.get().action() == Action.IWARP ? iwarpOptions : Map.of();
    }

    @Override
    public void outcome(Outcome outcome, String detail) {
        report.record(side, local, remote, decidedBy, outcome, detail);
    }
}
