package io.extsock.agent;

import io.extsock.ExtendedSelectorProvider;
import io.extsock.internal.nio.ChannelPolicies;
import io.extsock.internal.nio.PlatformProvider;
import java.lang.instrument.Instrumentation;
import java.net.SocketOption;
import java.nio.channels.spi.SelectorProvider;
import java.util.Map;
import java.util.Set;

/**
 * Makes extsock's {@link ExtendedSelectorProvider} the JVM's, so that the socket channels and
 * selectors a program opens the JDK's way ({@code SocketChannel.open()}, {@code Selector.open()},
 * and all that is built on them) are extsock's, and gives each new channel the rules, as {@link
 * SocketConversion} gives each socket.
 *
 * <p>The provider runs its channels on the JDK's own, which no public method returns once
 * another provider is the JVM's: the agent opens the JDK's package that holds it to the provider,
 * as {@code --add-exports java.base/sun.nio.ch} would.
 */
final class ChannelConversion {

    private static final String PROPERTY = "java.nio.channels.spi.SelectorProvider";

    private ChannelConversion() {
    }

    /**
     * @return whether NIO is converted: false when the program names a provider of its own, or
     *     the JVM chose its provider before the agent started
     */
    static boolean install(Rules rules, AgentArguments arguments, ConnectionReport report,
                           Instrumentation instrumentation) {
        String named = System.getProperty(PROPERTY);
        if (named != null && !named.equals(ExtendedSelectorProvider.class.getName())) {
            return false;  // the program's own choice
        }
        Module base = Object.class.getModule();
        instrumentation.redefineModule(base, Set.of(), Map.of("sun.nio.ch", Set.of(PlatformProvider.class.getModule())),
                Map.of(), Set.of(), Map.of());
        System.setProperty(PROPERTY, ExtendedSelectorProvider.class.getName());
        if (!(SelectorProvider.provider() instanceof ExtendedSelectorProvider)) {
            return false;  // chosen before the agent ran, once and for all
        }
        Map<SocketOption<?>, Object> iwarpOptions = ConvertedSocketOptions.forIwarpRule(arguments);
        ChannelPolicies.install(() -> new RulePolicy(rules, iwarpOptions, report));
        return true;
    }
}
