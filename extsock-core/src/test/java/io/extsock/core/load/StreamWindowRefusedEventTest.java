package io.extsock.core.load;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.extsock.core.ThreadProbe;
import io.extsock.core.engine.SoftwareIwarpProvider;
import io.extsock.core.memory.DirectBufferPool;
import io.extsock.core.stream.IwarpStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A window the memory budget will not let grow is recorded as io.extsock.StreamWindowRefused,
 * with the peer, the window's size, what it asked for and what it got: here a pool of the
 * test's own with no budget for growth, so the window stays at its base of 4 buffers while a
 * bulk write waits for credits, and the stream still delivers every byte.
 */
@Timeout(60)
class StreamWindowRefusedEventTest {

    private static final int BLOCK = DirectBufferPool.BLOCK_SIZE;
    /** Stream octets the 4 base buffers hold (each block holds a buffer: 64 KiB and the stream header). */
    private static final int BASE_WINDOW = 4 * 64 * 1024;

    @TempDir
    Path temp;

    @Test
    void aGrowthTheBudgetRefusesIsRecordedWithItsSizes() throws Exception {
        SoftwareIwarpProvider provider = new SoftwareIwarpProvider(new DirectBufferPool(BLOCK, 0));
        byte[] sent = new byte[2 << 20];
        new java.util.SplittableRandom(7).nextBytes(sent);
        String writer;
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable("io.extsock.StreamWindowRefused");
            recording.start();
            try (ServerSocketChannel listener = ServerSocketChannel.open()
                    .bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                 PrivatePoolPair pair = PrivatePoolPair.connect(provider, listener)) {
                InetSocketAddress local = (InetSocketAddress) pair.initiatorChannel().getLocalAddress();
                writer = local.getAddress().getHostAddress() + ":" + local.getPort();
                IwarpStream out = (IwarpStream) pair.initiator().stream();
                Thread[] writingThread = new Thread[1];
                CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> {
                    writingThread[0] = Thread.currentThread();
                    try {
                        out.write(sent, 0, sent.length);
                    } catch (java.io.IOException e) {
                        throw new RuntimeException(e);
                    }
                });
                while (writingThread[0] == null) {
                    Thread.onSpinWait();
                }
                // Nobody reads yet: the writer spends its credits and waits inside its write.
                ThreadProbe.awaitWaitingInside(writingThread[0], "io.extsock", "write");
                byte[] received = new byte[sent.length];
                pair.readFromResponder(received, received.length);
                writing.get(30, TimeUnit.SECONDS);
                assertArrayEquals(sent, received, "the stream delivers every byte with the window held at its base");
                assertEquals(4, pair.responderStream().receiveWindowBuffers(), "the window did not grow");
            }
            recording.stop();
            Path file = Files.createTempFile(temp, "refused", ".jfr");
            recording.dump(file);
            events = RecordingFile.readAllEvents(file);
        }
        List<RecordedEvent> refused = events.stream()
                .filter(e -> e.getEventType().getName().equals("io.extsock.StreamWindowRefused"))
                .collect(Collectors.toList());
        assertFalse(refused.isEmpty(), "no refusal recorded: " + events);
        for (RecordedEvent event : refused) {
            assertEquals(writer, event.getString("peer"));
            assertEquals(BASE_WINDOW, event.getInt("size"));
            assertEquals(2 * BASE_WINDOW, event.getInt("wantedSize"));
            assertEquals(BASE_WINDOW, event.getInt("grantedSize"), "nothing granted beyond the base");
        }
    }
}
