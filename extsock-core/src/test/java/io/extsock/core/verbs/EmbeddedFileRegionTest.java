package io.extsock.core.verbs;

import static io.extsock.core.verbs.TerminateAssertions.assertTerminate;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionCause;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * File regions ({@code IwarpConnection.registerFile}): a peer's RDMA Reads, and Sends and Writes
 * of ours, carry the file's bytes, read as they are framed; the region is read-only and bounded
 * by the file; a file that fails underneath ends the connection with a Terminate (RDMAP local
 * catastrophic error) and a request error that names it, never with wrong bytes. Without a socket
 * ({@link EmbeddedPair}).
 */
class EmbeddedFileRegionTest {

    private static final int READ_RESPONSE = 0x2;

    @TempDir
    Path directory;

    @ParameterizedTest(name = "max FPDU {0}")
    @ValueSource(ints = {1460, 65535})
    @DisplayName("RDMA Reads of a file region from an offset inside the file carry the file's bytes there, in many segments")
    void readsCarryTheFilesBytes(int maxFpdu) throws Exception {
        byte[] content = randomBytes(300_000, 1);
        Path file = write(content);
        EmbeddedPair pair = EmbeddedPair.open(EmbeddedPair.Terms.defaults().withMaxFpduSize(maxFpdu), 7, 4096);
        IwarpConnection client = pair.initiator().verbs();
        long position = 1_000;
        MemoryRegion exposed = pair.responder().verbs().registerFile(file, position, 250_000,
                EnumSet.of(Access.REMOTE_READ));
        assertEquals(250_000, exposed.length());
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(250_000), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(1).source(exposed.remote(0, 200_000)).sink(sink.slice(0, 200_000)));
        client.post(new ReadRequest().tag(2).source(exposed.remote(200_000, 50_000)).sink(sink.slice(200_000,
                50_000)));
        for (int tag = 1; tag <= 2; tag++) {
            WorkCompletion read = client.completions().take(5, TimeUnit.SECONDS);
            assertEquals(tag, read.tag());
            assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
        }
        byte[] landed = new byte[250_000];
        sink.buffer().get(landed);
        assertArrayEquals(Arrays.copyOfRange(content, 1_000, 251_000), landed);
        assertTrue(Collections.frequency(pair.responder().opcodesWritten(), READ_RESPONSE) >= 250_000 / 65535,
                "the responses went in segments");
        assertTrue(pair.responder().isConnected());
        assertTrue(pair.initiator().isConnected());
    }

    @Test
    @DisplayName("A Send and an RDMA Write gathered from a file region and a buffer carry the file's bytes")
    void sendsAndWritesFromAFileRegion() throws Exception {
        byte[] content = randomBytes(100_000, 2);
        Path file = write(content);
        EmbeddedPair pair = EmbeddedPair.open(3, 1024);
        IwarpConnection server = pair.responder().verbs();
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion fileRegion = server.registerFile(file, 0, content.length, EnumSet.noneOf(Access.class));
        ByteBuffer headerBytes = ByteBuffer.allocateDirect(4).putInt(0, 0x0A0B0C0D);
        MemoryRegion header = server.register(headerBytes, EnumSet.noneOf(Access.class));
        MemoryRegion inbox = client.register(ByteBuffer.allocateDirect(60_004), EnumSet.of(Access.LOCAL_WRITE));
        MemoryRegion target = client.register(ByteBuffer.allocateDirect(40_000), EnumSet.of(Access.REMOTE_WRITE));
        client.post(new ReceiveRequest().tag(10).scatter(inbox.slice(0, 60_004)));
        server.post(new SendRequest().tag(20).gather(header.slice(0, 4), fileRegion.slice(5_000, 60_000)));
        server.post(new WriteRequest().tag(21).gather(fileRegion.slice(60_000, 40_000)).target(target.remote()));
        assertEquals(CompletionStatus.SUCCESS, server.completions().take(5, TimeUnit.SECONDS).status());
        assertEquals(CompletionStatus.SUCCESS, server.completions().take(5, TimeUnit.SECONDS).status());
        WorkCompletion received = client.completions().take(5, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, received.status(), received.toString());
        assertEquals(60_004, received.byteLength());
        assertEquals(0x0A0B0C0D, inbox.buffer().getInt(0));
        byte[] sent = new byte[60_000];
        inbox.buffer().position(4).get(sent);
        assertArrayEquals(Arrays.copyOfRange(content, 5_000, 65_000), sent);
        pair.pump();
        byte[] written = new byte[40_000];
        target.buffer().get(written);
        assertArrayEquals(Arrays.copyOfRange(content, 60_000, 100_000), written);
    }

    @Test
    @DisplayName("A file region is read-only, lies within its file, has no buffer, and cannot be a receive buffer or a Read's sink")
    void registrationRefusals() throws Exception {
        Path file = write(randomBytes(1_000, 3));
        EmbeddedPair pair = EmbeddedPair.open(4, 1024);
        IwarpConnection verbs = pair.responder().verbs();
        IllegalArgumentException writable = assertThrows(IllegalArgumentException.class,
                () -> verbs.registerFile(file, 0, 1_000, EnumSet.of(Access.REMOTE_WRITE)));
        assertTrue(writable.getMessage().contains("read-only"), writable.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> verbs.registerFile(file, 0, 1_000, EnumSet.of(Access.LOCAL_WRITE)));
        assertThrows(IllegalArgumentException.class, () -> verbs.registerFile(file, -1, 10, EnumSet.noneOf(
                Access.class)));
        EOFException beyond = assertThrows(EOFException.class,
                () -> verbs.registerFile(file, 500, 501, EnumSet.of(Access.REMOTE_READ)));
        assertTrue(beyond.getMessage().contains("[500, 1001)") && beyond.getMessage().contains("1000 bytes"),
                beyond.getMessage());
        IOException directoryRefused = assertThrows(IOException.class,
                () -> verbs.registerFile(directory, 0, 0, EnumSet.of(Access.REMOTE_READ)));
        assertTrue(directoryRefused.getMessage().contains(directory.toString()), directoryRefused.getMessage());
        assertThrows(IOException.class, () -> verbs.registerFile(directory.resolve("missing"), 0, 0,
                EnumSet.of(Access.REMOTE_READ)));
        assertEquals(0, pair.responder().registry.registeredCount(), "no refused registration left a region");

        MemoryRegion region = verbs.registerFile(file, 500, 500, EnumSet.of(Access.REMOTE_READ));
        UnsupportedOperationException noBuffer = assertThrows(UnsupportedOperationException.class, region::buffer);
        assertTrue(noBuffer.getMessage().contains("file region"), noBuffer.getMessage());
        assertEquals(500, region.remote().length());
        verbs.post(new ReceiveRequest().tag(1).scatter(region.slice(0, 100)));
        WorkCompletion receive = verbs.completions().take(1, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, receive.status(), receive.toString());
        MemoryRegion peerRegion = pair.initiator().verbs().register(ByteBuffer.allocateDirect(100),
                EnumSet.of(Access.REMOTE_READ));
        verbs.post(new ReadRequest().tag(2).source(peerRegion.remote()).sink(region.slice(0, 100)));
        WorkCompletion read = verbs.completions().take(1, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, read.status(), read.toString());
        assertTrue(region.toString().contains("file"), region.toString());
        region.close();
        assertFalse(region.isValid());
    }

    @Test
    @DisplayName("A file that shrank under its region: the responder sends RDMAP local catastrophic 0x00/0x00 naming the file; the Read fails, no wrong byte lands")
    void shrunkFileEndsTheConnection() throws Exception {
        byte[] content = randomBytes(200_000, 5);
        Exposed exposedFile = exposeForReads(content, 5);
        Path file = exposedFile.file();
        EmbeddedPair pair = exposedFile.pair();
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = exposedFile.region();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(150_000);  // the responder will have sent some of the response first
        }
        ByteBuffer sinkBuffer = ByteBuffer.allocateDirect(content.length);
        MemoryRegion sink = client.register(sinkBuffer, EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(9).source(exposed.remote()).sink(sink.slice(0, content.length)));
        WorkCompletion read = client.completions().take(5, TimeUnit.SECONDS);
        assertEquals(9, read.tag());
        assertEquals(CompletionStatus.FLUSHED, read.status(), read.toString());
        assertEquals(CompletionCause.terminateReceived(0, 0, 0x00), read.cause(), read.toString());
        assertTerminate(pair.responder().terminateWritten(), 0x00, 0x00, 0);
        String failure = pair.responder().failure();
        assertTrue(failure.contains(file.toString()) && failure.contains("ended at byte 150000"), failure);
        assertFalse(pair.responder().isConnected());
        for (int i = 150_000; i < content.length; i++) {
            assertEquals(0, sinkBuffer.get(i), "nothing was placed past the file's new end (octet " + i + ")");
        }
    }

    @Test
    @DisplayName("A Send from a file region that shrank completes LOCAL_OPERATION_ERROR naming the file; the peer gets the Terminate")
    void sendFromAShrunkFile() throws Exception {
        Path file = write(randomBytes(10_000, 6));
        EmbeddedPair pair = EmbeddedPair.open(6, 4096);
        IwarpConnection server = pair.responder().verbs();
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion fileRegion = server.registerFile(file, 0, 10_000, EnumSet.noneOf(Access.class));
        MemoryRegion inbox = client.register(ByteBuffer.allocateDirect(10_000), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReceiveRequest().tag(1).scatter(inbox.slice(0, 10_000)));
        pair.pump();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(0);
        }
        server.post(new SendRequest().tag(2).gather(fileRegion.slice(0, 10_000)));
        WorkCompletion sent = server.completions().take(5, TimeUnit.SECONDS);
        assertEquals(2, sent.tag());
        assertEquals(CompletionStatus.LOCAL_OPERATION_ERROR, sent.status(), sent.toString());
        assertTrue(sent.detail().contains(file.toString()), sent.detail());
        assertEquals(CompletionCause.terminateSent(0, 0, 0x00), sent.cause());
        WorkCompletion receive = client.completions().take(5, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.FLUSHED, receive.status(), receive.toString());
        assertEquals(CompletionCause.terminateReceived(0, 0, 0x00), receive.cause());
    }

    @Test
    @DisplayName("A Write from a file region deregistered before it went out completes LOCAL_PROTECTION_ERROR naming the file; nothing is sent and the connection carries on")
    void fileRegionDeregisteredBeforeItsWriteStarted() throws Exception {
        Path file = write(randomBytes(50_000, 10));
        EmbeddedPair pair = EmbeddedPair.open(10, 4096);
        IwarpConnection server = pair.responder().verbs();
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion fileRegion = server.registerFile(file, 0, 50_000, EnumSet.noneOf(Access.class));
        MemoryRegion target = client.register(ByteBuffer.allocateDirect(50_000), EnumSet.of(Access.REMOTE_WRITE));
        server.post(new WriteRequest().tag(1).gather(fileRegion.slice(0, 50_000)).target(target.remote()));
        fileRegion.close();  // nothing framed yet: nothing holds the region
        pair.pump();
        WorkCompletion refused = server.completions().take(5, TimeUnit.SECONDS);
        assertEquals(1, refused.tag());
        assertEquals(CompletionStatus.LOCAL_PROTECTION_ERROR, refused.status(), refused.toString());
        assertTrue(refused.detail().contains(file.toString()) && refused.detail().contains("deregistered"),
                refused.detail());
        for (int i = 0; i < 50_000; i++) {
            assertEquals(0, target.buffer().get(i), "nothing was written (octet " + i + ")");
        }

        MemoryRegion note = server.register(ByteBuffer.allocateDirect(8).putLong(0, 42), EnumSet.noneOf(Access.class));
        MemoryRegion inbox = client.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReceiveRequest().tag(2).scatter(inbox.slice(0, 8)));
        server.post(new SendRequest().tag(3).gather(note.slice(0, 8)));
        assertEquals(CompletionStatus.SUCCESS, server.completions().take(5, TimeUnit.SECONDS).status());
        WorkCompletion received = client.completions().take(5, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, received.status(), received.toString());
        assertEquals(42, inbox.buffer().getLong(0));
        assertTrue(pair.responder().isConnected() && pair.initiator().isConnected());
    }

    @Test
    @DisplayName("A thread interrupted before it frames still sends the file's bytes, and keeps its interrupt status")
    void interruptedFramingThread() throws Exception {
        byte[] content = randomBytes(100_000, 8);
        Exposed exposedFile = exposeForReads(content, 8);
        EmbeddedPair pair = exposedFile.pair();
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = exposedFile.region();
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(content.length), EnumSet.of(Access.LOCAL_WRITE));
        client.post(new ReadRequest().tag(3).source(exposed.remote()).sink(sink.slice(0, content.length)));
        Thread.currentThread().interrupt();
        try {
            pair.pump();  // the responder frames on this thread
            assertTrue(Thread.currentThread().isInterrupted(), "the interrupt status is kept");
        } finally {
            Thread.interrupted();
        }
        WorkCompletion read = client.completions().take(5, TimeUnit.SECONDS);
        assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
        byte[] landed = new byte[content.length];
        sink.buffer().get(landed);
        assertArrayEquals(content, landed);
    }

    @Test
    @DisplayName("Reads at tagged offsets beyond 2 GiB of a sparse 3 GiB file region; a response's pieces split at 1 GiB")
    void beyondTwoGibibytes() throws Exception {
        Path file = directory.resolve("sparse.bin");
        long size = 3L << 30;
        long[] marks = {0, InboundRead.PIECE - 8, InboundRead.PIECE, (2L << 30) + 12_345, size - 16};
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.setLength(size);
            for (long mark : marks) {
                raf.seek(mark);
                raf.writeLong(mark);
            }
        }
        EmbeddedPair pair = EmbeddedPair.open(9, 4096);
        IwarpConnection client = pair.initiator().verbs();
        MemoryRegion exposed = pair.responder().verbs().registerFile(file, 0, size, EnumSet.of(Access.REMOTE_READ));
        assertEquals(size, exposed.length());
        Path huge = directory.resolve("huge.bin");
        try (RandomAccessFile raf = new RandomAccessFile(huge.toFile(), "rw")) {
            raf.setLength(5L << 30);
        }
        try (MemoryRegion beyondAWindow = pair.responder().verbs().registerFile(huge, 0, 5L << 30,
                EnumSet.of(Access.REMOTE_READ))) {
            IllegalArgumentException whole = assertThrows(IllegalArgumentException.class, beyondAWindow::remote);
            assertTrue(whole.getMessage().contains("32 bits"), whole.getMessage());
            assertThrows(IllegalArgumentException.class, () -> beyondAWindow.remote(0, 1L << 32));
            assertEquals(4L << 30, beyondAWindow.remote(4L << 30, 1L << 30).offset(), "a window beyond 4 GiB");
        }
        MemoryRegion sink = client.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
        for (long mark : marks) {
            client.post(new ReadRequest().tag(mark).source(exposed.remote(mark, 8)).sink(sink.slice(0, 8)));
            WorkCompletion read = client.completions().take(5, TimeUnit.SECONDS);
            assertEquals(CompletionStatus.SUCCESS, read.status(), read.toString());
            assertEquals(mark, sink.buffer().getLong(0), "the 8 octets at " + mark);
        }

        // A response of more than 2 GiB (which only a sink larger than a buffer could take) is
        // framed from pieces of 1 GiB: each piece's views come from its own place in the file.
        InboundRead response = new InboundRead();
        response.source = pair.responder().registry.lookup(exposed.stag());
        response.sourceTaggedOffset = 0;
        response.size = size - 8;
        response.lentViews = new LentViews();
        assertEquals(3, response.pieces());
        assertEquals(InboundRead.PIECE, response.length(0));
        assertEquals(InboundRead.PIECE - 8, response.length(2));
        assertEquals(InboundRead.PIECE - 8, response.view(0, (int) InboundRead.PIECE - 8, (int) InboundRead.PIECE)
                .getLong(0));
        assertEquals(InboundRead.PIECE, response.view(1, 0, 8).getLong(0));
        assertEquals((2L << 30) + 12_345, response.view(2, 12_345, 12_353).getLong(0));
        response.lentViews.returnAll();
    }

    /** A file of these bytes, whole, registered for the peer's Reads on the responder of a fresh pair. */
    private record Exposed(Path file, EmbeddedPair pair, MemoryRegion region) {
    }

    private Exposed exposeForReads(byte[] content, long seed) throws IOException {
        Path file = write(content);
        EmbeddedPair pair = EmbeddedPair.open(seed, 4096);
        MemoryRegion region = pair.responder().verbs().registerFile(file, 0, content.length,
                EnumSet.of(Access.REMOTE_READ));
        return new Exposed(file, pair, region);
    }

    private Path write(byte[] content) throws IOException {
        Path file = Files.createTempFile(directory, "region", ".bin");
        Files.write(file, content);
        return file;
    }

    private static byte[] randomBytes(int length, long seed) {
        byte[] bytes = new byte[length];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }
}
