package io.extsock.core.e2e;

import io.extsock.ExtendedServerSocket;
import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.IwarpConnection;
import java.io.IOException;
import java.net.InetAddress;
import java.net.SocketOption;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Two ExtendedSockets on loopback, connected and switched to IWARP_MODE at once: the client as
 * MPA initiator, the accepted socket as responder.
 */
final class IwarpPair implements AutoCloseable {

    final ExtendedServerSocket server;
    final ExtendedSocket client;
    final ExtendedSocket accepted;

    private IwarpPair(ExtendedServerSocket server, ExtendedSocket client, ExtendedSocket accepted) {
        this.server = server;
        this.client = client;
        this.accepted = accepted;
    }

    static IwarpPair open() throws Exception {
        return open(Map.of(), Map.of());
    }

    /** With options for each side, set before the switch. */
    static IwarpPair open(Map<SocketOption<?>, Object> clientOptions, Map<SocketOption<?>, Object> serverOptions)
            throws Exception {
        ExtendedServerSocket server = new ExtendedServerSocket(0, 50, InetAddress.getLoopbackAddress());
        ExtendedSocket client = new ExtendedSocket(InetAddress.getLoopbackAddress(), server.getLocalPort());
        ExtendedSocket accepted = server.accept();
        try {
            apply(client, clientOptions);
            apply(accepted, serverOptions);
            CompletableFuture<Void> responder = CompletableFuture.runAsync(() -> {
                try {
                    accepted.setOption(IwarpOptions.IWARP_MODE, true);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            client.setOption(IwarpOptions.IWARP_MODE, true);
            responder.get(30, TimeUnit.SECONDS);
            return new IwarpPair(server, client, accepted);
        } catch (IOException | ExecutionException | TimeoutException | RuntimeException e) {
            client.close();
            accepted.close();
            server.close();
            throw e;
        }
    }

    /** Verbs-only pairs: the application owns Sends and Receives. */
    static IwarpPair openVerbs() throws Exception {
        return open(Map.of(IwarpOptions.STREAMS, false), Map.of(IwarpOptions.STREAMS, false));
    }

    IwarpConnection clientVerbs() throws IOException {
        return client.iwarp();
    }

    IwarpConnection serverVerbs() throws IOException {
        return accepted.iwarp();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void apply(ExtendedSocket socket, Map<SocketOption<?>, Object> options) throws IOException {
        for (Map.Entry<SocketOption<?>, Object> option : options.entrySet()) {
            socket.setOption((SocketOption) option.getKey(), option.getValue());
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
        accepted.close();
        server.close();
    }
}
