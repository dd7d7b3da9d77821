package io.extsock.core.load;

import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.stream.IwarpStream;
import io.extsock.core.verbs.QueuePairVerbs;
import io.extsock.spi.IwarpSession;
import java.io.IOException;
import java.net.SocketOption;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Two switched ends on loopback through a provider of the test's choosing (so with a
 * {@link io.extsock.core.memory.DirectBufferPool} of its own, whose counts are exact): the
 * initiator is the peer a test may make hostile, the responder is ours.
 */
record PrivatePoolPair(IwarpSession initiator, IwarpSession responder, SocketChannel initiatorChannel,
                       SocketChannel responderChannel) implements AutoCloseable {

    static PrivatePoolPair connect(SoftwareIwarpProvider provider, ServerSocketChannel listener) throws Exception {
        SocketChannel initiatorChannel = SocketChannel.open(listener.getLocalAddress());
        SocketChannel responderChannel = listener.accept();
        try {
            CompletableFuture<IwarpSession> responding = CompletableFuture.supplyAsync(() -> {
                try {
                    return provider.attach(responderChannel, false, Map.<SocketOption<?>, Object>of());
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            IwarpSession initiator = provider.attach(initiatorChannel, true, Map.of());
            return new PrivatePoolPair(initiator, responding.get(30, TimeUnit.SECONDS), initiatorChannel,
                    responderChannel);
        } catch (Exception e) {
            initiatorChannel.close();
            responderChannel.close();
            throw e;
        }
    }

    /** The initiator's stream gives its Sends back: the test posts raw stream messages instead. */
    QueuePairVerbs hostileVerbs() {
        QueuePairVerbs verbs = (QueuePairVerbs) initiator.connection();
        verbs.setStreamsOwnSendsAndReceives(false);
        return verbs;
    }

    IwarpStream responderStream() {
        return (IwarpStream) responder.stream();
    }

    /** Reads {@code length} octets of the responder's stream into {@code into}, each read waiting 30 s at most. */
    void readFromResponder(byte[] into, int length) throws IOException {
        IwarpStream in = responderStream();
        int got = 0;
        while (got < length) {
            int n = in.read(into, got, length - got, 30_000);
            if (n < 0) {
                throw new IOException("end of stream after " + got + " of " + length);
            }
            got += n;
        }
    }

    @Override
    public void close() throws IOException {
        initiator.stream().close();
        responder.stream().close();
        initiatorChannel.close();
        responderChannel.close();
    }
}
