package io.extsock.internal;

import io.extsock.IwarpOptions;
import java.net.InetSocketAddress;
import java.net.SocketOption;
import java.nio.channels.SocketChannel;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One connection's {@link ConnectionPolicy}, if it has one (a program converted by the agent):
 * asked once, when the connection is established, and told once how the switch it asked for
 * turned out.
 */
final class PolicyDecision {

    private final ConnectionPolicy policy;
    /** The policy asked for a switch whose outcome it has not heard yet. */
    private final AtomicBoolean outcomePending = new AtomicBoolean();

    /** @param policy the connection's policy, or null for a connection the application decides on */
    PolicyDecision(ConnectionPolicy policy) {
        this.policy = policy;
    }

    /**
     * Asks the policy, if there is one, how the connection just established should run; its
     * iWARP options go into {@code iwarpSettings} as if the application had set them.
     *
     * @throws IllegalArgumentException if the policy set anything but valid iWARP options
     */
    void decide(boolean initiator, SocketChannel channel, Map<SocketOption<?>, Object> iwarpSettings)
            throws IOException {
        if (policy == null) {
            return;
        }
        Map<SocketOption<?>, Object> options = policy.optionsFor(
                (InetSocketAddress) channel.getLocalAddress(), (InetSocketAddress) channel.getRemoteAddress(),
                initiator);
        for (Map.Entry<SocketOption<?>, Object> option : options.entrySet()) {
            if (!IwarpOptions.ALL.contains(option.getKey()) || !option.getKey().type().isInstance(option.getValue())) {
                throw new IllegalArgumentException("a ConnectionPolicy sets iWARP options only, each with a value of"
                        + " its type, not " + option.getKey() + " = " + option.getValue());
            }
            IwarpOptionValues.validate(option.getKey(), option.getValue());
        }
        iwarpSettings.putAll(options);
        if (Boolean.TRUE.equals(iwarpSettings.get(IwarpOptions.IWARP_MODE))) {
            outcomePending.set(true);
        } else {
            policy.outcome(ConnectionPolicy.Outcome.PLAIN_TCP, "no switch asked for");
        }
    }

    /** Tells the policy, once, how the switch it asked for turned out. */
    void report(ConnectionPolicy.Outcome outcome, String detail) {
        if (outcomePending.compareAndSet(true, false)) {
            policy.outcome(outcome, detail);
        }
    }
}
