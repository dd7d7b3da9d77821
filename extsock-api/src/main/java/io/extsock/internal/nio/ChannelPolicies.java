package io.extsock.internal.nio;

import io.extsock.internal.ConnectionPolicy;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The policy each new socket channel of extsock's provider asks at its connect or accept,
 * JVM-wide: none by default; the agent's rules when it converts NIO, as its socket factory gives
 * each converted socket one.
 */
public final class ChannelPolicies {

    private static volatile Supplier<ConnectionPolicy> policies = () -> null;

    private ChannelPolicies() {
    }

    /**
     * From now on each new channel gets a policy of {@code each}.
     *
     * @param each makes one policy per connection (a policy hears its connection's outcome)
     */
    public static void install(Supplier<ConnectionPolicy> each) {
        policies = Objects.requireNonNull(each, "each");
    }

    /** The policy for a new channel, or null if none is installed. */
    static ConnectionPolicy forNewChannel() {
        return policies.get();
    }
}
