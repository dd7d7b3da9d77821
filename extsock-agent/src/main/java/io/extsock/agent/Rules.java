package io.extsock.agent;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Optional;

/** The rules of a rules file, in order: the first that matches a connection decides it. */
final class Rules {

    private final List<Rule> rules;

    Rules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /**
     * @param address for CONNECT the destination, for ACCEPT the local address the connection arrived at
     * @return the first rule that matches, or empty: the connection stays plain TCP
     */
    Optional<Rule> firstMatch(Side side, InetSocketAddress address) {
        for (Rule rule : rules) {
            if (rule.matches(side, address)) {
                return Optional.of(rule);
            }
        }
        return Optional.empty();
    }

    boolean anyAsksFor(Action action) {
        return rules.stream().anyMatch(rule -> rule.action() == action);
    }

    int size() {
        return rules.size();
    }

    /** @return how many rules have this action */
    long count(Action action) {
        return rules.stream().filter(rule -> rule.action() == action).count();
    }
}
