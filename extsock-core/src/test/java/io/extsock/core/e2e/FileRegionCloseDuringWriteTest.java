package io.extsock.core.e2e;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import io.extsock.testkit.pair.IwarpSocketPair;
import io.extsock.verbs.Access;
import io.extsock.verbs.CompletionStatus;
import io.extsock.verbs.IwarpConnection;
import io.extsock.verbs.MemoryRegion;
import io.extsock.verbs.ReceiveRequest;
import io.extsock.verbs.SendRequest;
import io.extsock.verbs.WorkCompletion;
import io.extsock.verbs.WriteRequest;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Deregistering a file region while an RDMA Write from it is on the wire, on real sockets: the
 * region's file is read as the Write is framed, so {@code close()} must wait until the Write's
 * last octets went out rather than close the file under it. The Write completes, the peer has
 * every byte, and the connection carries on.
 */
@Timeout(120)
class FileRegionCloseDuringWriteTest {

    private static final int SIZE = 64 << 20;
    private static final int PROBE = 64;

    @TempDir
    Path directory;

    @Test
    @DisplayName("close() of a file region during a 64 MiB Write from it waits for the Write, which lands whole")
    void closeWaitsForTheWriteUnderWay() throws Exception {
        byte[] content = new byte[SIZE];
        new SplittableRandom(11).nextBytes(content);
        Path file = Files.write(directory.resolve("served.bin"), content);
        try (IwarpSocketPair pair = IwarpSocketPair.openVerbs()) {
            IwarpConnection server = pair.serverVerbs();
            IwarpConnection client = pair.clientVerbs();
            ByteBuffer landed = ByteBuffer.allocateDirect(SIZE);
            MemoryRegion target = client.register(landed, EnumSet.of(Access.LOCAL_WRITE, Access.REMOTE_WRITE));
            MemoryRegion source = server.registerFile(file, 0, SIZE, EnumSet.noneOf(Access.class));
            server.post(new WriteRequest().tag(1).gather(source.slice(0, SIZE)).target(target.remote()));

            byte[] head = Arrays.copyOf(content, PROBE);
            byte[] seen = new byte[PROBE];
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            do {  // the first octets placed: the Write is being framed
                landed.get(0, seen);
                Thread.onSpinWait();
            } while (!Arrays.equals(head, seen) && System.nanoTime() < deadline);
            assertArrayEquals(head, seen, "the Write's first octets never landed");
            source.close();

            WorkCompletion written = server.completions().take(60, TimeUnit.SECONDS);
            assertNotNull(written, "the Write never completed");
            assertEquals(CompletionStatus.SUCCESS, written.status(), written.toString());

            // A Send after it arrives after its data: then every octet must be there.
            MemoryRegion note = server.register(ByteBuffer.allocateDirect(8).putLong(0, 7), EnumSet.noneOf(
                    Access.class));
            MemoryRegion inbox = client.register(ByteBuffer.allocateDirect(8), EnumSet.of(Access.LOCAL_WRITE));
            client.post(new ReceiveRequest().tag(2).scatter(inbox.slice(0, 8)));
            server.post(new SendRequest().tag(3).gather(note.slice(0, 8)));
            WorkCompletion received = client.completions().take(60, TimeUnit.SECONDS);
            assertNotNull(received, "the Send after the Write never arrived");
            assertEquals(CompletionStatus.SUCCESS, received.status(), received.toString());
            byte[] all = new byte[SIZE];
            landed.get(0, all);
            assertArrayEquals(content, all, "the Write landed whole");
        }
    }
}
