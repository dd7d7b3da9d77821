package io.extsock.core.proof;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.extsock.ExtendedSocket;
import io.extsock.IwarpOptions;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.io.DataInputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * One RDMA Write and one RDMA Read of 1 GiB each between memory-mapped files of two JVM
 * processes, zero copy from file to file: the Write goes from this JVM's mapped source file into
 * the child's ({@link MappedFilePeerProcess}) mapped file, the Read from the child's mapped file
 * into a third, mapped file of this JVM. The mappings are registered with {@code register}
 * (not pinned: 1 GiB is far above a usual RLIMIT_MEMLOCK), each as one region, and each transfer
 * is one work request. SHA-256 of the files' contents, read through the files, proves the bytes:
 * the source's here, the child's file there, the third file here.
 *
 * <p>The throughput is printed, not asserted. The Write is timed until a zero-length RDMA Read
 * behind it completes: the child serves that Read only after it has placed the whole Write
 * (RFC 5040 section 5.5), so the time covers placement, not just sending.
 */
@Timeout(300)
class MappedFileTransferIT {

    private static final int SIZE = 1 << 30;
    private static final int CHUNK = 64 << 20;
    private static final long WAIT_SECONDS = 120;

    @Test
    void oneGibWriteAndReadBetweenMappedFilesOfTwoProcesses(@TempDir Path dir) throws Exception {
        Path source = dir.resolve("source.bin");
        Path remote = dir.resolve("peer.bin");
        Path readBack = dir.resolve("read-back.bin");
        byte[] sourceSha = writeRandomFile(source, SIZE, 0x1_6B_F11EL);

        try (JavaProcess child = JavaProcess.startMain(MappedFilePeerProcess.class, remote.toString(),
                String.valueOf(SIZE));
             FileChannel sourceFile = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel readBackFile = FileChannel.open(readBack, StandardOpenOption.CREATE_NEW,
                     StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            String announced = child.nextLine(60, TimeUnit.SECONDS);
            assertTrue(announced.startsWith("port "), announced + "\n" + child.output());
            int port = Integer.parseInt(announced.substring(5).trim());
            MappedByteBuffer sourceMapping = sourceFile.map(FileChannel.MapMode.READ_ONLY, 0, SIZE);
            MappedByteBuffer sinkMapping = readBackFile.map(FileChannel.MapMode.READ_WRITE, 0, SIZE);

            long writeNanos;
            long readNanos;
            try (ExtendedSocket socket = new ExtendedSocket()) {
                socket.setOption(IwarpOptions.IWARP_MODE, true);
                socket.connect(new InetSocketAddress(Proof.LOOPBACK, port), 10_000);
                socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
                IwarpConnection verbs = socket.iwarp();
                MemoryRegion from = verbs.register(sourceMapping, Set.of());
                MemoryRegion into = verbs.register(sinkMapping, EnumSet.of(Access.LOCAL_WRITE));
                DataInputStream in = new DataInputStream(socket.getInputStream());
                OutputStream out = socket.getOutputStream();
                byte[] descriptor = new byte[RemoteBuffer.ENCODED_LENGTH];
                in.readFully(descriptor);
                RemoteBuffer peer = RemoteBuffer.readFrom(ByteBuffer.wrap(descriptor));
                assertEquals(SIZE, peer.length());

                long start = System.nanoTime();
                WorkCompletion written = verbs.submit(new WriteRequest().tag(1).gather(from.slice(0, SIZE))
                        .target(peer)).get(WAIT_SECONDS, TimeUnit.SECONDS);
                assertSuccess(written, SIZE);
                assertSuccess(verbs.submit(new ReadRequest().tag(2).source(peer.slice(0, 0)).sink(into.slice(0, 0)))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS), 0);
                writeNanos = System.nanoTime() - start;

                out.write('H');
                out.flush();
                byte[] peerSha = new byte[32];
                in.readFully(peerSha);
                assertEquals(HexFormat.of().formatHex(sourceSha), HexFormat.of().formatHex(peerSha),
                        "SHA-256 of the child's file after the RDMA Write");

                start = System.nanoTime();
                WorkCompletion read = verbs.submit(new ReadRequest().tag(3).source(peer).sink(into.slice(0, SIZE)))
                        .get(WAIT_SECONDS, TimeUnit.SECONDS);
                readNanos = System.nanoTime() - start;
                assertSuccess(read, SIZE);
                out.write('Q');
                out.flush();
            } catch (Exception | AssertionError e) {
                try {
                    child.waitFor(10, TimeUnit.SECONDS);  // so that its last words are in its output
                } catch (java.io.IOException stillRunning) {
                    // its output so far is what there is
                }
                throw new AssertionError(e + "\n==== the child:\n" + child.output(), e);
            }
            assertEquals(0, child.waitFor(60, TimeUnit.SECONDS), child.output());
            assertEquals(HexFormat.of().formatHex(sourceSha),
                    HexFormat.of().formatHex(Proof.sha256Of(readBackFile, SIZE)),
                    "SHA-256 of the third file after the RDMA Read");
            System.out.printf("mapped file transfer, 1 GiB between two processes: RDMA Write %.0f MB/s (%d ms),"
                    + " RDMA Read %.0f MB/s (%d ms)%n", SIZE / (writeNanos / 1e3), writeNanos / 1_000_000,
                    SIZE / (readNanos / 1e3), readNanos / 1_000_000);
        }
    }

    /**
     * Fills a new file with a seeded PRNG, 64 MiB at a time (every block written: no sparse
     * file), and returns the SHA-256 of its contents as read back through the file.
     */
    private static byte[] writeRandomFile(Path file, int size, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        ByteBuffer chunk = ByteBuffer.allocateDirect(CHUNK);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            for (long at = 0; at < size; at += CHUNK) {
                chunk.clear();
                while (chunk.hasRemaining()) {
                    chunk.putLong(random.nextLong());
                }
                chunk.flip();
                while (chunk.hasRemaining()) {
                    channel.write(chunk, at + chunk.position());
                }
            }
            return Proof.sha256Of(channel, size);
        }
    }

    private static void assertSuccess(WorkCompletion completion, long length) {
        assertEquals(CompletionStatus.SUCCESS, completion.status(), completion.toString());
        assertEquals(length, completion.byteLength(), completion.toString());
    }
}
