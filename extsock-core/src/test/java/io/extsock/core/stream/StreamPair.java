package io.extsock.core.stream;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.spi.IwarpSession;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Two ends of an IWARP_MODE connection over loopback, switched by the engine's provider: the
 * initiator's stream ({@link #writer}) and the responder's ({@link #reader}), named for how the
 * stream tests mostly use them.
 */
final class StreamPair implements AutoCloseable {

    final IwarpSession initiator;
    final IwarpSession responder;
    final IwarpStream writer;
    final IwarpStream reader;
    private final ServerSocketChannel listener;
    private final SocketChannel initiatorChannel;
    private final SocketChannel responderChannel;

    private StreamPair(ServerSocketChannel listener, SocketChannel initiatorChannel, SocketChannel responderChannel,
                       IwarpSession initiator, IwarpSession responder) {
        this.listener = listener;
        this.initiatorChannel = initiatorChannel;
        this.responderChannel = responderChannel;
        this.initiator = initiator;
        this.responder = responder;
        this.writer = (IwarpStream) initiator.stream();
        this.reader = (IwarpStream) responder.stream();
    }

    static StreamPair open() throws Exception {
        return open(new SoftwareIwarpProvider());
    }

    /** @param provider switches both ends (with its memory pool) */
    static StreamPair open(SoftwareIwarpProvider provider) throws Exception {
        ServerSocketChannel listener = ServerSocketChannel.open()
                .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        SocketChannel initiatorChannel = SocketChannel.open(listener.getLocalAddress());
        SocketChannel responderChannel = listener.accept();
        CompletableFuture<IwarpSession> responding = CompletableFuture.supplyAsync(() -> {
            try {
                return provider.attach(responderChannel, false, Map.of());
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        IwarpSession initiator = provider.attach(initiatorChannel, true, Map.of());
        return new StreamPair(listener, initiatorChannel, responderChannel, initiator,
                responding.get(20, TimeUnit.SECONDS));
    }

    @Override
    public void close() throws Exception {
        writer.close();
        reader.close();
        initiatorChannel.close();
        responderChannel.close();
        listener.close();
    }
}
