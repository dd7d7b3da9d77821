package io.extsock.core.proof;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReadRequest;
import io.extsock.verbs.RemoteBuffer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/** What the proof tests share: data, digests, free ports, thread dumps, the end of a connection. */
final class Proof {

    static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private Proof() {
    }

    /** {@code size} bytes of a seeded PRNG: both processes can produce the same data. */
    static byte[] random(int size, long seed) {
        byte[] data = new byte[size];
        new SplittableRandom(seed).nextBytes(data);
        return data;
    }

    static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AssertionError(e);
        }
    }

    static String sha256(byte[] data) {
        return HexFormat.of().formatHex(sha256().digest(data));
    }

    /** SHA-256 of the buffer's bytes from 0 to {@code length}; the buffer itself is not moved. */
    static String sha256(ByteBuffer buffer, int length) {
        MessageDigest digest = sha256();
        digest.update(buffer.duplicate().clear().limit(length));
        return HexFormat.of().formatHex(digest.digest());
    }

    /** SHA-256 of a file's first {@code size} bytes, read through the file (not a mapping). */
    static byte[] sha256Of(FileChannel file, long size) throws IOException {
        MessageDigest digest = sha256();
        ByteBuffer chunk = ByteBuffer.allocateDirect(8 << 20);
        for (long at = 0; at < size; ) {
            chunk.clear().limit((int) Math.min(chunk.capacity(), size - at));
            int n = file.read(chunk, at);
            if (n < 0) {
                throw new IOException("the file ends at " + at + " of " + size + " bytes");
            }
            at += n;
            digest.update(chunk.flip());
        }
        return digest.digest();
    }

    static byte[] bytes(ByteBuffer buffer, int offset, int length) {
        byte[] copy = new byte[length];
        buffer.get(offset, copy);
        return copy;
    }

    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            return probe.getLocalPort();
        }
    }

    /** Every thread's state and stack: for the message of a hang. */
    static String threadDump() {
        StringBuilder dump = new StringBuilder("---- thread dump of pid ")
                .append(ProcessHandle.current().pid()).append('\n');
        for (Map.Entry<Thread, StackTraceElement[]> entry : Thread.getAllStackTraces().entrySet()) {
            Thread thread = entry.getKey();
            dump.append('"').append(thread.getName()).append("\" ").append(thread.getState()).append('\n');
            for (StackTraceElement frame : entry.getValue()) {
                dump.append("    at ").append(frame).append('\n');
            }
        }
        return dump.toString();
    }

    /**
     * Waits until the connection has ended (posting and registering then fail) and returns the
     * reason the engine gives; fails after the timeout.
     */
    static String awaitEnded(IwarpConnection connection, long timeout, TimeUnit unit)
            throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (System.nanoTime() - deadline < 0) {
            try {
                connection.register(ByteBuffer.allocateDirect(8), Set.of()).close();
            } catch (IOException ended) {
                return ended.getMessage();
            }
            Thread.sleep(10);  // a polling interval
        }
        throw new AssertionError("the connection did not end within " + timeout + " " + unit + "\n" + threadDump());
    }

    /**
     * Runs a Terminate once through this JVM, on a connection of its own (an ephemeral port, so
     * outside any capture): the first Terminate a JVM handles loads and compiles its code path,
     * which delays that side's answering FIN by several milliseconds.
     */
    static void warmUpTerminate() throws Exception {
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection verbs = pair.clientVerbs();
            MemoryRegion sink = verbs.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
            verbs.submit(new ReadRequest().source(new RemoteBuffer(0x7777_7700, 0, 8)).sink(sink.slice(0, 8)))
                    .get(20, TimeUnit.SECONDS);
            awaitEnded(verbs, 20, TimeUnit.SECONDS);
            awaitEnded(pair.serverVerbs(), 20, TimeUnit.SECONDS);
        }
    }
}
