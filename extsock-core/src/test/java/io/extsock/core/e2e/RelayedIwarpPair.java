package io.extsock.core.e2e;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.testkit.fault.FaultPlan;
import io.extsock.testkit.fault.FaultRelay;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * Two ExtendedSockets on loopback with a {@link FaultRelay} between them, switched to
 * IWARP_MODE with CRC on: the client as MPA initiator, upstream is client to server.
 */
final class RelayedIwarpPair implements AutoCloseable {

    final ExtendedServerSocket server;
    final FaultRelay relay;
    final ExtendedSocket client;
    final ExtendedSocket accepted;

    private RelayedIwarpPair(ExtendedServerSocket server, FaultRelay relay, ExtendedSocket client,
                             ExtendedSocket accepted) {
        this.server = server;
        this.relay = relay;
        this.client = client;
        this.accepted = accepted;
    }

    /** Connects through a relay with these plans; the sockets are still plain TCP. */
    static RelayedIwarpPair connect(FaultPlan upstream, FaultPlan downstream) throws IOException {
        ExtendedServerSocket server = new ExtendedServerSocket(0, 50, InetAddress.getLoopbackAddress());
        FaultRelay relay = FaultRelay.start(new InetSocketAddress(server.getInetAddress(), server.getLocalPort()),
                upstream, downstream);
        ExtendedSocket client = new ExtendedSocket();
        client.connect(relay.address());
        ExtendedSocket accepted = server.accept();
        relay.awaitConnected(10, TimeUnit.SECONDS);
        return new RelayedIwarpPair(server, relay, client, accepted);
    }

    /** Connects through a relay and switches both ends, CRC on, streams as asked. */
    static RelayedIwarpPair open(FaultPlan upstream, FaultPlan downstream, boolean streams) throws Exception {
        RelayedIwarpPair pair = connect(upstream, downstream);
        try {
            pair.switchBoth(streams);
            return pair;
        } catch (Exception e) {
            pair.close();
            throw e;
        }
    }

    /** Switches both ends to IWARP_MODE at once (each waits for the other). */
    void switchBoth(boolean streams) throws Exception {
        for (ExtendedSocket socket : new ExtendedSocket[] {client, accepted}) {
            socket.setOption(IwarpOptions.STREAMS, streams);
            socket.setOption(IwarpOptions.CRC, true);
        }
        // Its own thread, joined here: a shared pool's threads would linger and look leaked.
        java.util.concurrent.FutureTask<Void> responder = new java.util.concurrent.FutureTask<>(() -> {
            accepted.setOption(IwarpOptions.IWARP_MODE, true);
            return null;
        });
        Thread responderThread = new Thread(responder, "switches-the-accepted-end");
        responderThread.start();
        try {
            client.setOption(IwarpOptions.IWARP_MODE, true);
        } finally {
            try {
                responder.get(30, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException e) {
                if (e.getCause() instanceof IOException io) {
                    throw io;
                }
                throw e;
            } finally {
                responderThread.join(30_000);
            }
        }
    }

    IwarpConnection clientVerbs() throws IOException {
        return client.iwarp();
    }

    IwarpConnection serverVerbs() throws IOException {
        return accepted.iwarp();
    }

    @Override
    public void close() throws IOException {
        client.close();
        accepted.close();
        relay.close();
        server.close();
    }
}
