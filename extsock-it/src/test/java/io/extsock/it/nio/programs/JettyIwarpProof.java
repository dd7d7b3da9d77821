package io.extsock.it.nio.programs;

import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.SelectableChannelEndPoint;

/**
 * A Jetty connection listener (a bean of a server connector or a client) that prints what {@link
 * IwarpProof} proves of each connection: its mode once it carried traffic ({@link #used}: the
 * client's connections at their opening, which follows their switch at connect; the server's at
 * their first request, which follows their switch at first use), and its statistics at its end
 * or when {@link #printStatistics} is called.
 */
final class JettyIwarpProof implements Connection.Listener {

    private final String who;
    private final boolean atOpening;
    private final Map<EndPoint, IwarpConnection> connections = new ConcurrentHashMap<>();

    private JettyIwarpProof(String who, boolean atOpening) {
        this.who = who;
        this.atOpening = atOpening;
    }

    static JettyIwarpProof ofClient() {
        return new JettyIwarpProof("client", true);
    }

    static JettyIwarpProof ofServer() {
        return new JettyIwarpProof("server", false);
    }

    /** A connection carried traffic: prints its mode, once. */
    void used(EndPoint endPoint) {
        connections.computeIfAbsent(endPoint, used -> {
            try {
                return IwarpProof.used(who, ((SelectableChannelEndPoint) used).getChannel());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    @Override
    public void onOpened(Connection connection) {
        if (atOpening) {
            used(connection.getEndPoint());
        }
    }

    @Override
    public void onClosed(Connection connection) {
        IwarpConnection ended = connections.remove(connection.getEndPoint());
        if (ended != null) {
            IwarpProof.printStatistics(who, ended);
        }
    }

    /** The statistics of every connection not yet ended, which then prints no more. */
    void printStatistics() {
        for (EndPoint endPoint : connections.keySet()) {
            IwarpConnection open = connections.remove(endPoint);
            if (open != null) {
                IwarpProof.printStatistics(who, open);
            }
        }
    }
}
