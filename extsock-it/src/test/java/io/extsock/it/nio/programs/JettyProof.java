package io.extsock.it.nio.programs;

import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.ManagedSelector;
import org.eclipse.jetty.io.SelectableChannelEndPoint;

/**
 * A Jetty connection listener (a bean of Jetty's server connector or client) that prints, for the
 * first connection opened, the classes of the channel under its end point and of the selector
 * that watches it.
 */
final class JettyProof implements Connection.Listener {

    private final String who;
    private final AtomicBoolean proved = new AtomicBoolean();

    JettyProof(String who) {
        this.who = who;
    }

    @Override
    public void onOpened(Connection connection) {
        if (!proved.compareAndSet(false, true)) {
            return;
        }
        SelectableChannelEndPoint endPoint = (SelectableChannelEndPoint) connection.getEndPoint();
        ProviderProof.print(who, "channel", endPoint.getChannel());
        try {
            ManagedSelector selector = (ManagedSelector) ProviderProof.field(endPoint, "_selector");
            ProviderProof.print(who, "selector", selector.getSelector());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
