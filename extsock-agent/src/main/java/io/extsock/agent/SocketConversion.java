package io.extsock.agent;

import io.extsock.internal.ChannelServerSocketImpl;
import io.extsock.internal.ChannelSocketImpl;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketOption;
import java.util.Map;

/**
 * Makes every {@code java.net.Socket} and {@code ServerSocket} created from now on in this JVM an
 * extsock one, through the JDK's socket implementation factories.
 *
 * <p>Both factories are needed: a ServerSocket with a custom implementation has its accepted
 * connections' implementations made by the Socket factory and filled in by the server
 * implementation's accept, and a platform ServerSocket would accept into platform sockets that
 * no rule could switch.
 */
final class SocketConversion {

    private SocketConversion() {
    }

    /**
     * @throws AgentConfigurationException if a factory was set already (by another agent): the
     *         JDK takes one per JVM
     */
    @SuppressWarnings("deprecation")  // the factories are deprecated since JDK 17, and still the only hook
    static void install(Rules rules, AgentArguments arguments, ConnectionReport report)
            throws AgentConfigurationException {
        Map<SocketOption<?>, Object> iwarpOptions = ConvertedSocketOptions.forIwarpRule(arguments);
        try {
            Socket.setSocketImplFactory(() -> new ChannelSocketImpl(new RulePolicy(rules, iwarpOptions, report)));
            ServerSocket.setSocketFactory(ChannelServerSocketImpl::new);
        } catch (IOException e) {
            throw new AgentConfigurationException("cannot install the socket factories: " + e.getMessage()
                    + " (another agent set its own?)", e);
        }
    }
}
