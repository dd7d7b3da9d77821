package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.IwarpOptions;
import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.IwarpSettings;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.SocketOption;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * MPA markers (RFC 5044 section 4.3) with FPDUs near 64 KiB, end to end over loopback. Such an
 * FPDU meets up to 128 markers, and each marker inside a payload takes a slot of the gathering
 * write of its own and splits the payload: once the engine's gather could not hold one whole
 * FPDU, the framer refused it, the message stayed at the head of the send queue and the side
 * receiving the markers waited forever.
 */
@Timeout(60)
class MarkersLargeFpduTest {

    private static final Set<Access> REMOTE_RW = EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_READ, Access.REMOTE_WRITE);

    /** Which side asks for markers (M): the other side then puts them in what it sends. */
    enum MarkersAskedBy { CLIENT, BOTH }

    /** FPDU sizes 65000 and the largest, 65544 (with markers an FPDU stays within 64 KiB); CRC on and off. */
    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (int fpdu : new int[] {65_000, 65_544}) {
            for (boolean crc : new boolean[] {true, false}) {
                for (MarkersAskedBy asker : MarkersAskedBy.values()) {
                    cases.add(Arguments.of(fpdu, crc, asker));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "MAX_FPDU_SIZE {0}, CRC {1}, markers asked by {2}")
    @MethodSource("cases")
    @DisplayName("Send, RDMA Write and RDMA Read of several full FPDUs each arrive through the markers")
    void verbsMessagesOfSeveralFpdus(int fpdu, boolean crc, MarkersAskedBy asker) throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open(options(fpdu, crc, true, false),
                options(fpdu, crc, asker == MarkersAskedBy.BOTH, false))) {
            IwarpConnection client = pair.clientVerbs();
            IwarpConnection server = pair.serverVerbs();
            IwarpSettings settings = client.settings();
            assertTrue(settings.markersReceived(), "the client asked for markers");
            assertEquals(asker == MarkersAskedBy.BOTH, settings.markersSent());
            assertEquals(crc, settings.crc());
            assertEquals(fpdu, settings.maxFpduSize());

            // Toward the client, which asked: Send, Write and (the client's) Read Responses.
            sendArrives(server, client, 200_000, 1);
            writeArrives(server, client, 300_000, 2);
            readArrives(client, server, 250_000, 3);
            if (asker == MarkersAskedBy.BOTH) {
                sendArrives(client, server, 200_000, 4);
                writeArrives(client, server, 300_000, 5);
                readArrives(server, client, 250_000, 6);
            }
        }
    }

    @ParameterizedTest(name = "MAX_FPDU_SIZE {0}, CRC {1}, markers asked by {2}")
    @MethodSource("cases")
    @DisplayName("The socket's stream echoes 100000 bytes through the markers")
    void streamEcho(int fpdu, boolean crc, MarkersAskedBy asker) throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.open(options(fpdu, crc, true, true),
                options(fpdu, crc, asker == MarkersAskedBy.BOTH, true))) {
            byte[] message = random(100_000, 7);
            CompletableFuture<Void> echo = CompletableFuture.runAsync(() -> {
                try {
                    InputStream in = pair.accepted().getInputStream();
                    pair.accepted().getOutputStream().write(in.readNBytes(message.length));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            OutputStream out = pair.client().getOutputStream();
            out.write(message);
            assertArrayEquals(message, pair.client().getInputStream().readNBytes(message.length));
            echo.get(20, TimeUnit.SECONDS);
        }
    }

    private static Map<SocketOption<?>, Object> options(int fpdu, boolean crc, boolean markers, boolean streams) {
        return Map.of(IwarpOptions.MAX_FPDU_SIZE, fpdu, IwarpOptions.CRC, crc, IwarpOptions.MARKERS, markers,
                IwarpOptions.STREAMS, streams);
    }

    private static void sendArrives(IwarpConnection from, IwarpConnection to, int size, long seed) throws Exception {
        byte[] data = random(size, seed);
        MemoryRegion inbox = to.register(ByteBuffer.allocateDirect(size), EnumSet.of(Access.LOCAL_WRITE));
        CompletableFuture<WorkCompletion> received = to.submit(new ReceiveRequest().tag(seed)
                .scatter(inbox.slice(0, size)));
        MemoryRegion outbox = from.register(ByteBuffer.allocateDirect(size).put(data).flip(), Set.of());
        WorkCompletion sent = from.submit(new SendRequest().tag(seed).gather(outbox.slice(0, size)))
                .get(20, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, sent.status(), sent.detail());
        WorkCompletion done = received.get(20, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, done.status(), done.detail());
        assertEquals(size, done.byteLength());
        byte[] got = new byte[size];
        inbox.buffer().get(0, got);
        assertArrayEquals(data, got);
    }

    private static void writeArrives(IwarpConnection from, IwarpConnection to, int size, long seed) throws Exception {
        byte[] data = random(size, seed);
        MemoryRegion target = to.register(ByteBuffer.allocateDirect(size + 100), REMOTE_RW);
        MemoryRegion source = from.register(ByteBuffer.allocateDirect(size).put(data).flip(), Set.of());
        WorkCompletion written = from.submit(new WriteRequest().tag(seed).gather(source.slice(0, size))
                .target(target.remote(100, size))).get(20, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, written.status(), written.detail());
        // One-sided: a Send behind the Write (same stream, in order) says that all of it landed.
        sendArrives(from, to, 16, seed + 100);
        byte[] got = new byte[size];
        target.buffer().get(100, got);
        assertArrayEquals(data, got);
    }

    /** {@code reader} reads from {@code source}: the Read Responses travel toward the reader. */
    private static void readArrives(IwarpConnection reader, IwarpConnection source, int size, long seed)
            throws Exception {
        byte[] data = random(size, seed);
        MemoryRegion exposed = source.register(ByteBuffer.allocateDirect(size).put(data).flip(),
                EnumSet.of(Access.REMOTE_READ));
        MemoryRegion sink = reader.register(ByteBuffer.allocateDirect(size), EnumSet.of(Access.LOCAL_WRITE));
        WorkCompletion read = reader.submit(new ReadRequest().tag(seed).source(exposed.remote())
                .sink(sink.slice(0, size))).get(20, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, read.status(), read.detail());
        assertEquals(size, read.byteLength());
        byte[] got = new byte[size];
        sink.buffer().get(0, got);
        assertArrayEquals(data, got);
    }

    private static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }
}
